// Configuration versions (notes §6): create on a workspace, upload a .tar.gz to the unauthenticated upload URL,
// read status. A finished upload makes the version `uploaded` and the workspace's latest, then tells the runs
// module (store.uploadHooks) so `auto-queue-runs` can queue a run.
import type { Router } from '../http/router';
import { created, ok } from '../http/context';
import { ApiError, notFound } from '../http/errors';
import { requireWorkspace } from '../http/access';
import { isoMillis, isoSeconds, optionalBoolean, readAttributes, readData, relationship } from '../http/jsonapi';
import { paginate, readPage } from '../http/pagination';
import { ArchiveTooLarge, readTarGz, writeTarGz } from '../store/archive';
import { newId, randomBase62 } from '../store/ids';
import type { ConfigurationVersion, IngressAttributes } from '../store/model';
import type { Store } from '../store/store';

export const uploadPathPrefix = '/_uploads/';

export function serializeConfigurationVersion(version: ConfigurationVersion, uploadUrl?: string): Record<string, unknown> {
  const self = `/api/v2/configuration-versions/${version.id}`;
  const attributes: Record<string, unknown> = {
    'auto-queue-runs': version.autoQueueRuns,
    error: version.status === 'errored' ? 'invalid_archive' : null,
    'error-message': version.errorMessage,
    source: version.source,
    speculative: version.speculative,
    provisional: version.provisional,
    status: version.status,
    'status-timestamps': { ...version.statusTimestamps },
    'created-at': isoMillis(version.createdAt),
  };
  // The upload URL is a secret: only the create response carries it (notes §6).
  if (uploadUrl) attributes['upload-url'] = uploadUrl;
  return {
    id: version.id,
    type: 'configuration-versions',
    attributes,
    relationships: {
      'ingress-attributes': relationship('ingress-attributes', version.ingress?.id ?? null, `${self}/ingress-attributes`),
    },
    links: { self, download: `${self}/download` },
  };
}

export function serializeIngressAttributes(ingress: IngressAttributes): Record<string, unknown> {
  const repository = `https://github.com/${ingress.identifier}`;
  return {
    id: ingress.id,
    type: 'ingress-attributes',
    attributes: {
      branch: ingress.branch,
      'clone-url': `${repository}.git`,
      'commit-message': ingress.commitMessage,
      'commit-sha': ingress.commitSha,
      'commit-url': `${repository}/commit/${ingress.commitSha}`,
      'compare-url': null,
      identifier: ingress.identifier,
      'is-pull-request': false,
      'on-default-branch': true,
      'pull-request-number': null,
      'sender-username': ingress.senderUsername,
      'sender-avatar-url': null,
      'sender-html-url': `https://github.com/${ingress.senderUsername}`,
      tag: null,
    },
    links: { self: `/api/v2/ingress-attributes/${ingress.id}` },
  };
}

function requireVisibleVersion(store: Store, caller: Parameters<typeof requireWorkspace>[1], id: string): ConfigurationVersion {
  const version = store.configurationVersion(id);
  if (!version) throw notFound();
  requireWorkspace(store, caller, version.workspaceId);
  return version;
}

export function registerConfigurationVersionRoutes(router: Router): void {
  router.add('POST', '/api/v2/workspaces/:workspace_id/configuration-versions', (ctx) => {
    // Organization tokens may not create configuration versions (notes §2): canQueueRun is false for them.
    const workspace = requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id, 'canQueueRun');
    const attributes = ctx.body === undefined ? {} : readAttributes(readData(ctx.body));
    const now = ctx.store.now();
    const version: ConfigurationVersion = {
      id: newId('cv'),
      workspaceId: workspace.id,
      status: 'pending',
      source: 'tfe-api',
      speculative: optionalBoolean(attributes, 'speculative') ?? false,
      provisional: optionalBoolean(attributes, 'provisional') ?? false,
      autoQueueRuns: optionalBoolean(attributes, 'auto-queue-runs') ?? true,
      errorMessage: null,
      statusTimestamps: {},
      createdAt: now,
      uploadSecret: randomBase62(40),
      files: new Map(),
      ingress: null,
    };
    ctx.store.configurationVersions.set(version.id, version);
    const uploadUrl = `${ctx.url.origin}${uploadPathPrefix}${version.uploadSecret}`;
    return created({ data: serializeConfigurationVersion(version, uploadUrl) });
  });

  router.add('GET', '/api/v2/configuration-versions/:id', (ctx) => {
    const version = requireVisibleVersion(ctx.store, ctx.caller, ctx.params.id);
    const included = ctx.query.get('include')?.split(',').includes('ingress_attributes') && version.ingress ? [serializeIngressAttributes(version.ingress)] : undefined;
    return ok({ data: serializeConfigurationVersion(version), ...(included ? { included } : {}) });
  });

  router.add('GET', '/api/v2/configuration-versions/:id/ingress-attributes', (ctx) => {
    const version = requireVisibleVersion(ctx.store, ctx.caller, ctx.params.id);
    if (!version.ingress) throw notFound();
    return ok({ data: serializeIngressAttributes(version.ingress) });
  });

  router.add('GET', '/api/v2/configuration-versions/:id/download', async (ctx) => {
    const version = requireVisibleVersion(ctx.store, ctx.caller, ctx.params.id);
    if (version.status !== 'uploaded' && version.status !== 'archived') throw notFound('This configuration version has no uploaded files.');
    return { status: 200, raw: await writeTarGz(version.files), contentType: 'application/octet-stream' };
  });

  router.add('GET', '/api/v2/workspaces/:workspace_id/configuration-versions', (ctx) => {
    const workspace = requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id);
    const page = readPage(ctx.query);
    const versions = [...ctx.store.configurationVersions.values()]
      .filter((v) => v.workspaceId === workspace.id)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const list = paginate(versions, page, { url: ctx.url });
    return ok({ data: list.items.map((v) => serializeConfigurationVersion(v)), links: list.links, meta: list.meta });
  });

  // Like the service's blob storage: no Authorization, the secret in the URL is the credential.
  router.addPublic('PUT', `${uploadPathPrefix}:secret`, async (ctx) => {
    const version = ctx.store.configurationVersionByUploadSecret(ctx.params.secret);
    if (!version) throw notFound('Unknown upload URL.');
    if (version.status !== 'pending') {
      throw new ApiError(409, 'conflict', `Configuration version ${version.id} is already ${version.status}; create a new one to upload again.`);
    }
    const now = ctx.store.now();
    try {
      version.files = await readTarGz(ctx.rawBody);
    } catch (error) {
      version.status = 'errored';
      version.errorMessage = error instanceof Error ? error.message : 'The archive could not be read.';
      version.statusTimestamps['errored-at'] = isoSeconds(now);
      throw error instanceof ArchiveTooLarge ? new ApiError(413, 'payload too large', version.errorMessage) : new ApiError(422, 'invalid archive', version.errorMessage);
    }
    version.status = 'uploaded';
    version.statusTimestamps['uploaded-at'] = isoSeconds(now);
    const workspace = ctx.store.workspace(version.workspaceId);
    if (workspace) workspace.latestConfigurationVersionId = version.id;
    for (const hook of ctx.store.uploadHooks) hook(version);
    return { status: 200 };
  });
}

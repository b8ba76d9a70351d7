// State versions (the service's state storage, as go-tfe and the Terraform CLI use it): create (inline or through
// upload URLs; the caller must hold the workspace's lock), read, list, the current one, its outputs (sensitive
// values only on the output's own read), and the token-less download and upload URLs.
import { ok, created, type AuthedContext } from '../http/context';
import { ApiError, invalidAttribute, notFound } from '../http/errors';
import { requireWorkspace, requireWorkspaceByName } from '../http/access';
import { isoMillis, optionalBoolean, readAttributes, readData, relationship } from '../http/jsonapi';
import { paginate, readPage } from '../http/pagination';
import type { Router } from '../http/router';
import { StateVersionError, type StateVersionOutput, type StateVersionRecord } from '../store/stateVersions';
import type { Store } from '../store/store';

export const statePathPrefix = '/_archivist/v1/state/';

export function registerStateVersionRoutes(router: Router): void {
  router.add('POST', '/api/v2/workspaces/:workspace_id/state-versions', (ctx) => {
    const workspace = requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id, 'canLock');
    const holder = workspace.lockedBy;
    if (!holder || holder.type !== 'users' || holder.id !== ctx.caller.user.id) {
      throw new ApiError(409, 'conflict', 'The workspace must be locked by you to create a state version: lock it first (terraform does).');
    }
    const attributes = readAttributes(readData(ctx.body));
    const serial = attributes.serial;
    if (typeof serial !== 'number' || !Number.isInteger(serial) || serial < 0) throw invalidAttribute('serial must be a non-negative integer', '/data/attributes/serial');
    const md5 = attributes.md5;
    if (typeof md5 !== 'string' || !/^[0-9a-f]{32}$/.test(md5)) throw invalidAttribute('md5 must be the hex MD5 of the state', '/data/attributes/md5');
    const lineage = typeof attributes.lineage === 'string' && attributes.lineage ? attributes.lineage : undefined;
    // `terraform state push -force` sends force: true (go-tfe StateVersionCreateOptions.Force): no serial or lineage check.
    const force = optionalBoolean(attributes, 'force') === true;
    const decode = (key: string) => (typeof attributes[key] === 'string' && attributes[key] ? Buffer.from(attributes[key] as string, 'base64') : undefined);
    try {
      const record = ctx.store.stateVersions.create(workspace.id, { serial, md5, ...(lineage ? { lineage } : {}), force, ...optional('state', decode('state')), ...optional('jsonState', decode('json-state')), createdByUserId: ctx.caller.user.id, now: ctx.store.now() });
      return created({ data: serializeStateVersion(ctx, record, true) });
    } catch (error) {
      throw asApiError(error);
    }
  });

  router.add('GET', '/api/v2/state-versions/:id', (ctx) => ok({ data: serializeStateVersion(ctx, requireStateVersion(ctx, ctx.params.id!), false) }));
  router.add('GET', '/api/v2/workspaces/:workspace_id/current-state-version', (ctx) => {
    const workspace = requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id);
    const current = ctx.store.stateVersions.current(workspace.id);
    if (!current) throw notFound('This workspace has no state yet.');
    return ok({ data: serializeStateVersion(ctx, current, false) });
  });
  router.add('GET', '/api/v2/state-versions', (ctx) => {
    const organization = ctx.query.get('filter[organization][name]');
    const name = ctx.query.get('filter[workspace][name]');
    if (!organization || !name) throw new ApiError(400, 'bad request', 'filter[organization][name] and filter[workspace][name] are required.');
    const workspace = requireWorkspaceByName(ctx.store, ctx.caller, organization, name);
    const list = paginate(ctx.store.stateVersions.list(workspace.id), readPage(ctx.query), { url: ctx.url });
    return ok({ data: list.items.map((record) => serializeStateVersion(ctx, record, false)), links: list.links, meta: list.meta });
  });

  const outputs = (ctx: AuthedContext, record: StateVersionRecord) => ok({ data: record.outputs.map((output) => serializeOutput(output, false)) });
  router.add('GET', '/api/v2/workspaces/:workspace_id/current-state-version-outputs', (ctx) => {
    const workspace = requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id);
    const current = ctx.store.stateVersions.current(workspace.id);
    if (!current) throw notFound('This workspace has no state yet.');
    return outputs(ctx, current);
  });
  router.add('GET', '/api/v2/state-versions/:id/outputs', (ctx) => outputs(ctx, requireStateVersion(ctx, ctx.params.id!)));
  router.add('GET', '/api/v2/state-version-outputs/:id', (ctx) => {
    for (const workspace of ctx.store.workspaces.values()) {
      for (const record of ctx.store.stateVersions.list(workspace.id)) {
        const output = record.outputs.find((o) => o.id === ctx.params.id);
        if (output) {
          requireWorkspace(ctx.store, ctx.caller, workspace.id);
          return ok({ data: serializeOutput(output, true) });
        }
      }
    }
    throw notFound();
  });

  // Blob storage: the secret in the URL is the credential (no token), like configuration uploads.
  router.addPublic('GET', `${statePathPrefix}:secret`, (ctx) => {
    const found = ctx.store.stateVersions.bySecret(ctx.params.secret!);
    if (!found || (found.kind !== 'download' && found.kind !== 'json-download')) throw notFound('Unknown state URL.');
    const bytes = found.kind === 'download' ? found.record.stateBytes : found.record.jsonStateBytes;
    if (!bytes) throw notFound('This state version has no such file (yet).');
    return { status: 200, raw: bytes, contentType: 'application/json' };
  });
  router.addPublic('PUT', `${statePathPrefix}:secret`, (ctx) => {
    const found = ctx.store.stateVersions.bySecret(ctx.params.secret!);
    if (!found || (found.kind !== 'upload' && found.kind !== 'json-upload')) throw notFound('Unknown upload URL.');
    if (found.kind === 'json-upload') {
      found.record.jsonStateBytes = ctx.rawBody;
      return { status: 200 };
    }
    if (found.record.status === 'finalized') throw new ApiError(409, 'conflict', 'This state version is already uploaded.');
    try {
      ctx.store.stateVersions.finalize(found.record, ctx.rawBody);
    } catch (error) {
      throw asApiError(error);
    }
    return { status: 200 };
  });
}

function optional<K extends string>(key: K, value: Buffer | undefined): Partial<Record<K, Buffer>> {
  return value ? ({ [key]: value } as Record<K, Buffer>) : {};
}

function asApiError(error: unknown): unknown {
  if (error instanceof StateVersionError) return error.status === 409 ? new ApiError(409, 'conflict', error.message) : invalidAttribute(error.message, '/data/attributes/state');
  return error;
}

function requireStateVersion(ctx: AuthedContext, id: string): StateVersionRecord {
  const record = ctx.store.stateVersions.get(id);
  if (!record) throw notFound();
  requireWorkspace(ctx.store, ctx.caller, record.workspaceId);
  return record;
}

function serializeStateVersion(ctx: { store: Store; url: URL }, record: StateVersionRecord, justCreated: boolean): Record<string, unknown> {
  const origin = ctx.url.origin;
  const resources = (record.state?.resources ?? []).map((r) => ({ name: r.name, type: r.type, count: Array.isArray(r.instances) ? r.instances.length : 0, module: r.module ?? 'root', provider: r.provider ?? '' }));
  return {
    id: record.id,
    type: 'state-versions',
    attributes: {
      'created-at': isoMillis(record.createdAt),
      serial: record.serial,
      status: record.status,
      size: record.stateBytes?.length ?? 0,
      'state-version': record.state?.version ?? 4,
      'terraform-version': record.state?.terraform_version ?? null,
      'resources-processed': record.status === 'finalized',
      resources,
      modules: {},
      providers: {},
      'vcs-commit-sha': null,
      'vcs-commit-url': null,
      'hosted-state-download-url': record.status === 'finalized' ? `${origin}${statePathPrefix}${record.downloadSecret}` : null,
      'hosted-json-state-download-url': record.jsonStateBytes ? `${origin}${statePathPrefix}${record.jsonDownloadSecret}` : null,
      ...(justCreated || record.status === 'pending'
        ? { 'hosted-state-upload-url': `${origin}${statePathPrefix}${record.uploadSecret}`, 'hosted-json-state-upload-url': `${origin}${statePathPrefix}${record.jsonUploadSecret}` }
        : {}),
    },
    relationships: {
      workspace: relationship('workspaces', record.workspaceId),
      run: relationship('runs', record.runId ?? null),
      'created-by': relationship('users', record.createdByUserId ?? null),
      outputs: { data: record.outputs.map((o) => ({ type: 'state-version-outputs', id: o.id })) },
    },
    links: { self: `/api/v2/state-versions/${record.id}` },
  };
}

/** The value of a sensitive output only on its own read (`GET /state-version-outputs/:id`), as the CLI expects. */
function serializeOutput(output: StateVersionOutput, withSensitiveValue: boolean): Record<string, unknown> {
  return {
    id: output.id,
    type: 'state-version-outputs',
    attributes: {
      name: output.name,
      sensitive: output.sensitive,
      // `type` is a plain name (go-tfe reads a string); the structural type is `detailed-type`.
      type: simpleType(output.type),
      value: output.sensitive && !withSensitiveValue ? null : output.value,
      'detailed-type': output.type,
    },
    links: { self: `/api/v2/state-version-outputs/${output.id}` },
  };
}

function simpleType(type: unknown): string {
  if (typeof type === 'string') return type === 'bool' ? 'boolean' : type;
  const kind = Array.isArray(type) ? type[0] : undefined;
  if (kind === 'tuple' || kind === 'list' || kind === 'set') return 'array';
  if (kind === 'object' || kind === 'map') return 'hash';
  return 'string';
}

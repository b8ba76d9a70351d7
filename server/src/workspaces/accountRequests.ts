// The requests behind sign-in, pinning and the palette's pickers (declared in protocol.ts): who a token is (without
// keeping it), the organizations and workspaces a token sees, one workspace with its permissions and current run,
// and which extra workspaces the client shows (the watcher lists their runs like linked ones').
import { tokenOriginProblem } from '../auth/origins';
import { tokenCharacterProblem } from '../auth/tokenCharacters';
import { workspacePermissions } from './workspacePermissions';
import type { Connection } from 'vscode-languageserver';
import { ResponseError, LSPErrorCodes } from 'vscode-languageserver';
import type { Workspace } from '../api';
import { collectItems, relatedId, ServiceClient, ServiceError, isApiError } from '../api';
import type { AnyResource } from '../api/schemas/jsonapi';
import { findIncluded } from '../api/schemas/jsonapi';
import type { CoreContext } from '../commands/context';
import { resolveTarget } from '../commands/context';
import { invalidParams, toResponseError } from '../commands/errors';
import { parseRequestParams } from '../commands/requestParams';
import { hostOfAddress, normalizeAddress } from '../config/settings';
import type { TokenIdentity, WorkspaceSummary } from '../protocol';
import { accountIdentityRequest, organizationsRequest, validateTokenRequest, watchWorkspacesNotification, workspaceRequest, workspacesRequest } from '../protocol';
import { summarizeRun } from './runSummary';

export function registerAccountRequests(connection: Connection, context: CoreContext): void {
  connection.onRequest(validateTokenRequest, (params) => guard(() => validateToken(context, parseRequestParams('hcpTerraform/validateToken', params))));
  connection.onRequest(accountIdentityRequest, (raw) =>
    guard(async () => {
      const params = parseRequestParams('hcpTerraform/accountIdentity', raw);
      const hostname = params.hostname?.toLowerCase() ?? context.hosts.configuredHost;
      const client = context.hosts.clientFor(hostname);
      return client ? identityOf(await client.account.details()) : null;
    }),
  );
  connection.onRequest(organizationsRequest, (params) =>
    guard(async () => {
      const target = resolveTarget(context, parseRequestParams('hcpTerraform/organizations', params));
      const organizations = await collectItems(target.client.organization.pages(), { maxPages: 10 });
      return { organizations: organizations.map((org) => org.id).sort((a, b) => a.localeCompare(b)) };
    }),
  );
  connection.onRequest(workspacesRequest, (raw) =>
    guard(async () => {
      const params = parseRequestParams('hcpTerraform/workspaces', raw);
      const target = resolveTarget(context, params);
      const page = await target.client.workspaces.list(params.organization, {
        searchName: typeof params.search === 'string' && params.search ? params.search : undefined,
        pageNumber: positive(params.pageNumber),
        pageSize: positive(params.pageSize),
        include: ['current_run'],
      });
      return {
        workspaces: page.items.map((workspace) => summarizeWorkspace(workspace, page.included, target.hostname, context.hosts.addressFor(target.hostname), params.organization)),
        page: { current: page.currentPage, ...(page.nextPage !== undefined ? { next: page.nextPage } : {}) },
      };
    }),
  );
  connection.onRequest(workspaceRequest, (raw) =>
    guard(async () => {
      const params = parseRequestParams('hcpTerraform/workspace', raw);
      const target = resolveTarget(context, params);
      const { workspace, included } = await target.client.workspaces.getById(params.workspaceId, { include: ['current_run', 'organization'] });
      return summarizeWorkspace(workspace, included, target.hostname, context.hosts.addressFor(target.hostname), relatedId(workspace, 'organization') ?? '');
    }),
  );

  // Per host, the workspaces the client asked for (pinned ones); linked workspaces are watched by the directory.
  const requested = new Map<string, Set<string>>();
  connection.onNotification(watchWorkspacesNotification, (raw) => {
    let params: ReturnType<typeof parseRequestParams<'hcpTerraform/watchWorkspaces'>>;
    try {
      params = parseRequestParams('hcpTerraform/watchWorkspaces', raw);
    } catch (error) {
      // A notification has no answer: the cause goes to the log, naming the field.
      context.log(`${error instanceof Error ? error.message : String(error)} Ignored.`);
      return;
    }
    const hostname = (params.hostname ?? context.hosts.configuredHost).toLowerCase();
    const next = new Set(params.workspaceIds);
    const previous = requested.get(hostname) ?? new Set<string>();
    for (const id of previous) {
      // A linked workspace stays watched whatever the client says: the directory owns that watch.
      if (!next.has(id) && !context.directory.byWorkspaceId(id)) context.watcher.unwatchWorkspace(hostname, id);
    }
    for (const id of next) context.watcher.watchWorkspace(hostname, id, { reportFirstList: true });
    requested.set(hostname, next);
  });
}

async function validateToken(context: CoreContext, params: { hostname?: unknown; token?: unknown } | undefined): Promise<TokenIdentity> {
  if (!params || typeof params.hostname !== 'string' || !params.hostname.trim() || typeof params.token !== 'string' || !params.token.trim()) {
    throw invalidParams('Send {"hostname": "…", "token": "…"} to check a token.');
  }
  const given = params.hostname.trim();
  const hostname = given.includes('://') ? (normalizeAddress(given) ? hostOfAddress(given) : given) : given.toLowerCase();
  // A client of its own: the token is checked against its host only, and never replaces the host's current token.
  const ca = context.hosts.trustedCa;
  const refused = tokenCharacterProblem(hostname, { token: params.token.trim(), source: 'client' }) ?? tokenOriginProblem(hostname, context.hosts.addressFor(hostname));
  if (refused) throw invalidParams(refused);
  const client = new ServiceClient({ address: context.hosts.addressFor(hostname), token: params.token.trim(), ...(ca ? { ca } : {}) });
  try {
    return identityOf(await client.account.details());
  } catch (error) {
    if (error instanceof ServiceError && error.status === 401) {
      throw new ResponseError(LSPErrorCodes.RequestFailed, `${hostname} refused this token (401): it is wrong, expired or revoked. Create a new one on the service (User Settings → Tokens).`, { status: 401 });
    }
    if (isApiError(error)) throw new ResponseError(LSPErrorCodes.RequestFailed, `Could not check the token with ${hostname}: ${error.message}`);
    throw error;
  } finally {
    void client.close().catch(() => undefined);
  }
}

/** What a token authenticates, as GET /account/details says: a user by name, a team or organization by id. */
function identityOf(details: Awaited<ReturnType<ServiceClient['account']['details']>>): TokenIdentity {
  const username = details.account.attributes.username ?? undefined;
  const id = details.authenticatedId ?? details.account.id;
  const name = details.tokenKind === 'organization' ? id : (username ?? id);
  const identity: TokenIdentity = { kind: details.tokenKind, name, id };
  if (details.tokenKind === 'user' && details.account.attributes.email) identity.email = details.account.attributes.email;
  return identity;
}

export function summarizeWorkspace(workspace: Workspace, included: readonly AnyResource[], hostname: string, address: string, organization: string): WorkspaceSummary {
  const a = workspace.attributes;
  const summary: WorkspaceSummary = { id: workspace.id, name: a.name, organization: organization || (relatedId(workspace, 'organization') ?? ''), hostname, permissions: workspacePermissions(workspace) };
  if (typeof a.locked === 'boolean') summary.locked = a.locked;
  if (typeof a['auto-apply'] === 'boolean') summary.autoApply = a['auto-apply'];
  if (a['terraform-version']) summary.terraformVersion = a['terraform-version'];
  if (a['execution-mode']) summary.executionMode = a['execution-mode'];
  const html = workspace.links?.['self-html'];
  if (typeof html === 'string') {
    try {
      summary.webUrl = new URL(html, address).href;
    } catch {
      // a malformed link is left out, not an error
    }
  }
  const current = workspace.relationships?.['current-run']?.data;
  const run = current && !Array.isArray(current) ? findIncluded(included, current) : undefined;
  if (run && typeof (run.attributes as { status?: unknown } | undefined)?.status === 'string') {
    summary.currentRun = summarizeRun(run as never, included);
  }
  return summary;
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toResponseError(error);
  }
}

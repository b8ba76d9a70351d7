/**
 * The custom protocol between the HCP Terraform language server and its clients, declared once.
 * The VS Code client imports this file; other editors can call the same methods by name.
 * Every method is namespaced `hcpTerraform/` and says who sends it to whom; every command is
 * `hcpTerraform.server.<verb>` with ONE object argument (workspace/executeCommand `arguments: [args]`).
 * Plain types only (no zod, no vscode): the server validates arguments itself (server/src/commands/arguments.ts).
 */
import type { CreateRunInput } from './api/runs';
import { NotificationType, RequestType, RequestType0 } from 'vscode-languageserver-protocol';

// ---------------------------------------------------------------------------------------------------------------
// Configuration

/** What a client passes in `initializationOptions`. Both are optional: settings and the environment fill the gaps. */
export interface InitializationOptions {
  /** Service address, e.g. `https://app.terraform.io`. */
  address?: string;
  /** API token for that address. Never logged or echoed back. */
  token?: string;
  /**
   * What the client can ask its user through the custom requests below, instead of window/showMessageRequest:
   * `trustHost` (hcpTerraform/trustHost, a modal in VS Code), `variableValue` (a value prompt for the "Set workspace
   * variable…" quick fix's hcpTerraform.server.createVariable), `signIn` (it offers sign-in on hcpTerraform/signInNeeded,
   * so the server does not also say so with window/showMessage), `changeRequestSubject` (it asks for the subject of a
   * change request opened from a selection, whose text is never sent), `commandOutcomes` (it shows what a command
   * did itself: its views and status bar follow the runs live, so the server does not also say so with
   * window/showMessage), `confirmations` (it asks its user itself before a destructive command it sends: apply,
   * discard, force-cancel, force-execute, a destroy plan, deleting a workspace variable; without it the server asks
   * with window/showMessageRequest and sends nothing without the answer's button). Other editors leave this out.
   */
  prompts?: { trustHost?: boolean; variableValue?: boolean; signIn?: boolean; changeRequestSubject?: boolean; commandOutcomes?: boolean; confirmations?: boolean };
}

/**
 * server → client, when initializationOptions.prompts.trustHost: a workspace (a cloud block, workspace settings)
 * names a service host the user has not named, and a token for it is known. Nothing is sent there until the answer
 * is `{ trusted: true }`. Clients without the capability get the same question as window/showMessageRequest.
 */
export interface TrustHostParams {
  hostname: string;
  /** The address requests would go to. */
  address: string;
  /** The question, ready to show. */
  message: string;
}
export const trustHostRequest = new RequestType<TrustHostParams, { trusted: boolean }, void>('hcpTerraform/trustHost');

/**
 * The `hcpTerraform` settings section, read with workspace/configuration (per workspace folder) and re-read on
 * workspace/didChangeConfiguration. Unknown or mistyped members are ignored with a logged warning.
 */
export interface HcpTerraformSettings {
  /** `hcpTerraform.address`: the service used when a cloud block names no hostname. */
  address?: string;
  /**
   * `hcpTerraform.workspace`: overrides the folder → workspace link of every module folder in the workspace folder
   * (beats the cloud block, the remote backend and TF_* variables).
   */
  workspace?: { hostname?: string; organization?: string; name?: string; project?: string };
  /** `hcpTerraform.tls.caFile`: a PEM file of a private certificate authority to trust (NODE_EXTRA_CA_CERTS too). */
  tls?: { caFile?: string };
  /** `hcpTerraform.planOverlay.enabled`: show the latest plan's verdict on resource blocks (default true). */
  planOverlay?: { enabled?: boolean };
}

export interface ServerStatus {
  /** The server's version (the extension's version). */
  version: string;
  /** The service address in use. */
  address: string;
  /** Whether a token is known for that address (never the token itself). */
  signedIn: boolean;
}

/** client → server: the server's identity and sign-in state; cheap, used as a health check. */
export const serverStatusRequest = new RequestType0<ServerStatus, void>('hcpTerraform/serverStatus');

export interface SetTokenParams {
  /** The host the token belongs to (`app.terraform.io`, `tfe.example.com:8443`); default: the configured address's host. */
  hostname?: string;
  /** The token, or null to sign out of that host. Never logged. */
  token: string | null;
}

/** client → server: the user signed in (or out). The token is used for that host only and beats every other source. */
export const setTokenNotification = new NotificationType<SetTokenParams>('hcpTerraform/setToken');

// ---------------------------------------------------------------------------------------------------------------
// Plain data the server returns

export interface RunActionsSummary {
  isCancelable: boolean;
  isConfirmable: boolean;
  isDiscardable: boolean;
  isForceCancelable: boolean;
}

/** What the caller may do to a run (the run's `permissions`); absent members are unknown, treated as allowed. */
export interface RunPermissionsSummary {
  canApply?: boolean;
  canCancel?: boolean;
  canDiscard?: boolean;
  canForceExecute?: boolean;
  canForceCancel?: boolean;
}

export interface RunSummary {
  id: string;
  /** Any status the service sends (unknown ones pass through). */
  status: string;
  /** Human label of the status ("Needs confirmation"); the raw status for unknown ones. */
  statusLabel: string;
  workspaceId?: string;
  message?: string;
  source?: string;
  createdAt?: string;
  /** When the run entered its current status, if the service says. */
  statusChangedAt?: string;
  hasChanges?: boolean;
  isDestroy?: boolean;
  planOnly?: boolean;
  refreshOnly?: boolean;
  savePlan?: boolean;
  /** Applies without confirmation once planned (the run's own option, defaulting to the workspace's setting). */
  autoApply?: boolean;
  allowEmptyApply?: boolean;
  allowConfigGeneration?: boolean;
  debuggingMode?: boolean;
  /** False when the run was queued to skip refreshing the state first. */
  refresh?: boolean;
  targetAddrs?: string[];
  replaceAddrs?: string[];
  /** The run variables' keys; never their values, which may be secrets and would reach the trace and the views. */
  variableKeys?: string[];
  actions: RunActionsSummary;
  /** The caller's rights on this run, when the service says. */
  permissions?: RunPermissionsSummary;
  /** Whether force-execute applies: the run is pending behind another (status `pending`) and may be run now. */
  isForceExecutable?: boolean;
  /** Plan and apply resource counts, when the run document included them (`include=plan,apply`). */
  resourceAdditions?: number;
  resourceChanges?: number;
  resourceDestructions?: number;
  /** Who queued it (user name), when known. */
  createdBy?: string;
  /** Engine version the run uses, when the service says. */
  terraformVersion?: string;
  /** Every status timestamp the service gave (`planned-at` → ISO time). */
  statusTimestamps?: Record<string, string>;
  forceCancelAvailableAt?: string;
  configurationVersionId?: string;
  planId?: string;
  applyId?: string;
  costEstimateId?: string;
}

export interface PageInfo {
  current: number;
  next?: number;
  totalPages?: number;
  totalCount?: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Requests for the client's views (client → server)

/** The workspace a folder is linked to, as the service knows it. */
export interface LinkedWorkspace {
  id: string;
  name: string;
  organization: string;
  /** Host name of the service, e.g. `app.terraform.io` (no scheme). */
  hostname: string;
  /** What this token may do there, when the service says (the workspace's `permissions`); absent means allowed. */
  permissions?: WorkspacePermissionsSummary;
}

/**
 * Whether a folder's workspace is known, and why not. Anything but `linked` means "unknown", never "empty": nothing
 * that needs the workspace (most diagnostics, run actions, the code lens) acts on it.
 */
export type LinkedWorkspaceState =
  | { kind: 'linked'; workspace: LinkedWorkspace }
  /** The folder has no cloud block / remote backend / override, or the link is incomplete (see the link's problems). */
  | { kind: 'not-linked' }
  /** No token for this host: sign in. */
  | { kind: 'signed-out'; hostname: string }
  /** Still reading the workspace from the service. */
  | { kind: 'loading' }
  /** The service says there is no such workspace (or the token may not see it). */
  | { kind: 'not-found'; hostname: string; organization: string; name: string }
  /** Anything else (network, 5xx, malformed response): a message safe to show (no token, no sensitive value). */
  | { kind: 'error'; message: string };

export interface LinkedFolder {
  /** File URI of the module folder. */
  folderUri: string;
  mechanism: 'cloud' | 'remote-backend' | 'override' | 'none';
  hostname?: string;
  organization?: string;
  /** The workspace name, when the link names one (tags/prefix links may not). */
  workspaceName?: string;
  /** Problems of the link itself (missing organization...), for people. */
  problems: string[];
  signedIn: boolean;
  state: LinkedWorkspaceState;
}

/** client → server: every module folder the server knows, with its link and workspace. */
export const linkedWorkspacesRequest = new RequestType0<LinkedFolder[], void>('hcpTerraform/linkedWorkspaces');

/** Which service a request is about: by workspace id (a linked one), or explicitly by host. */
export interface HostParams {
  /** Needed only for workspaces no open folder is linked to (defaults to the configured address's host). */
  hostname?: string;
}

export interface RunsParams extends HostParams {
  /** A workspace's runs; or, without it, the organization's. */
  workspaceId?: string;
  organization?: string;
  /** Organization lists only. */
  workspaceNames?: string[];
  pageNumber?: number;
  pageSize?: number;
  operations?: string[];
  statuses?: string[];
  statusGroup?: string;
  sources?: string[];
  /** A year or 'year'. */
  timeframe?: number | 'year';
  search?: string;
}

export interface RunsResult {
  runs: RunSummary[];
  page: PageInfo;
}

/** client → server: one page of runs with the spec's filters. Uses the 30/min run-list budget the watcher shares. */
export const runsRequest = new RequestType<RunsParams, RunsResult, void>('hcpTerraform/runs');

export interface RunDetailsParams extends HostParams {
  runId: string;
  /** Read log text too: from these byte offsets (0 = from the start); omitted = no log for that phase. */
  planLogOffset?: number;
  applyLogOffset?: number;
}

export interface PhaseDetails {
  id: string;
  status: string;
  resourceAdditions?: number;
  resourceChanges?: number;
  resourceDestructions?: number;
  /** Present when a log offset was asked for and the phase has a log. */
  log?: { text: string; nextOffset: number; complete: boolean };
}

export interface RunDetails {
  run: RunSummary;
  plan?: PhaseDetails;
  apply?: PhaseDetails;
  costEstimate?: { id: string; status: string; proposedMonthlyCost?: string; deltaMonthlyCost?: string };
  /** The run's policy checks (GET /runs/:id/policy-checks), when it has any. */
  policyChecks?: Array<{ id: string; status: string; result?: { passed?: number; softFailed?: number; hardFailed?: number; advisoryFailed?: number } }>;
}

/** client → server: a run with its plan, apply, cost estimate and (optionally) log text via log-read-url. */
export const runDetailsRequest = new RequestType<RunDetailsParams, RunDetails, void>('hcpTerraform/runDetails');

export interface ChangeRequestsParams extends HostParams {
  workspaceName: string;
  pageNumber?: number;
  pageSize?: number;
}

export interface ChangeRequestSummary {
  id: string;
  subject: string;
  message: string;
  archived: boolean;
  createdAt?: string;
  /** When and by whom it was archived, and who created it (user names when the service says, else user ids). */
  archivedAt?: string;
  archivedBy?: string;
  createdBy?: string;
  /** The workspace it belongs to, when the service says. */
  workspaceId?: string;
}

/** client → server: a workspace's change requests (by workspace NAME, as the spec's path has it), one page. */
export const changeRequestsRequest = new RequestType<ChangeRequestsParams, { changeRequests: ChangeRequestSummary[]; page: PageInfo }, void>(
  'hcpTerraform/changeRequests',
);

export interface VariablesParams extends HostParams {
  workspaceId: string;
}

export interface VariableSummary {
  id: string;
  key: string;
  /** Never present for sensitive variables. */
  value?: string;
  category: string;
  hcl: boolean;
  sensitive: boolean;
  description?: string;
}

/** client → server: a workspace's variables, read fresh (sensitive values are never included). */
export const variablesRequest = new RequestType<VariablesParams, VariableSummary[], void>('hcpTerraform/variables');

export interface SubscriptionParams extends HostParams {
  organization: string;
}

export type SubscriptionResult =
  | {
      available: true;
      subscription: { id: string; isActive?: boolean; startAt?: string; endAt?: string; runsCeiling?: number; agentsCeiling?: number; attributes: Record<string, unknown> };
      featureSet?: { id: string; name?: string; identifier?: string; flags: Record<string, boolean>; attributes: Record<string, unknown> };
    }
  /** Terraform Enterprise has no subscription interface (404 there is normal). */
  | { available: false; reason: string; /** `enterprise` when the service says it is Terraform Enterprise. */ edition?: 'enterprise' | 'hosted' };

/** client → server: the organization's subscription and feature set. */
export const subscriptionRequest = new RequestType<SubscriptionParams, SubscriptionResult, void>('hcpTerraform/subscription');

// --- Change Requests, Variables and Organization views (issue #10) -------------------------------------------

export interface OrganizationTokenStatusParams extends HostParams {
  organization: string;
}

/** Whether the organization has an API token, and its dates (never the secret: the service gives it only once). */
export type OrganizationTokenStatus =
  | { exists: true; id: string; createdAt?: string; expiredAt?: string; lastUsedAt?: string }
  /** No token, or this account may not manage it (the service answers 404 for both). */
  | { exists: false; reason: string };

/** client → server: the organization token's record (GET …/authentication-token), without its secret. */
export const organizationTokenStatusRequest = new RequestType<OrganizationTokenStatusParams, OrganizationTokenStatus, void>('hcpTerraform/organizationTokenStatus');

export interface VariableDeclarationSummary {
  name: string;
  /** File URI and zero-based line of the `variable` block. */
  uri: string;
  line: number;
  description?: string;
  sensitive: boolean;
}

/** client → server: the `variable` blocks declared in a module folder's code (Go to declaration, undeclared marks). */
export const variableDeclarationsRequest = new RequestType<FolderParams, VariableDeclarationSummary[], void>('hcpTerraform/variableDeclarations');

/** client → server: whether a text is one valid HCL expression (a variable's value with HCL on), by the server's parser. */
export const validateHclValueRequest = new RequestType<{ value: string }, { valid: true } | { valid: false; message: string }, void>('hcpTerraform/validateHclValue');

export interface CheckRunVariableParams {
  key: string;
  /** An HCL literal, as typed. */
  value: string;
  /** The module folder the run's workspace is linked to, when there is one: its declarations are checked too. */
  folderUri?: string;
}

/**
 * What is wrong with a run variable before the run is queued: `error` when the service would refuse it (not a
 * variable name, not an HCL literal); `warning` when the folder's code would not take it (not declared there, or a
 * value that does not fit its declared type). The code on disk may differ from the run's configuration, so a warning
 * does not stop the run. Values are never quoted back.
 */
export type RunVariableVerdict = { error?: string; warning?: string };

/** client → server: checks one run variable as the user types it (Queue Plan), with the same rules queuePlan applies. */
export const checkRunVariableRequest = new RequestType<CheckRunVariableParams, RunVariableVerdict, void>('hcpTerraform/checkRunVariable');

// ---------------------------------------------------------------------------------------------------------------
// Accounts, organizations, workspaces (client → server), for sign-in, pinning and the palette's pickers

export interface ValidateTokenParams {
  /** The host the token is for (`app.terraform.io`, `localhost:8443`), or an address. */
  hostname: string;
  /** The token to check with GET /account/details. Never logged, never kept by this request. */
  token: string;
}

export interface TokenIdentity {
  /** What the token authenticates. */
  kind: 'user' | 'team' | 'organization' | 'unknown';
  /** User name, team name (or id) or organization name: what to show as the account's label. */
  name: string;
  /** The user, team or organization id. */
  id: string;
  /** Only for a user's own token. */
  email?: string;
}

/**
 * client → server: who a token is, without keeping it. A refused token answers a ResponseError whose `data` is
 * `{ status: 401 }`; an unreachable service answers one with a message safe to show.
 */
export const validateTokenRequest = new RequestType<ValidateTokenParams, TokenIdentity, void>('hcpTerraform/validateToken');

/**
 * client → server: who the server's own token for a host is (the user's sign-in, `TF_TOKEN_…`, or `terraform login`'s
 * credentials file), read with GET /account/details: what the Organization view names a host by when the editor
 * itself holds no token for it. Null when the server has no token for the host.
 */
export const accountIdentityRequest = new RequestType<HostParams, TokenIdentity | null, void>('hcpTerraform/accountIdentity');

/** client → server: the organizations the host's token can see (names, sorted). */
export const organizationsRequest = new RequestType<HostParams, { organizations: string[] }, void>('hcpTerraform/organizations');

/** What the caller may do in a workspace (the workspace's `permissions`); absent = unknown. */
export interface WorkspacePermissionsSummary {
  canQueueRun?: boolean;
  canQueueApply?: boolean;
  canQueueDestroy?: boolean;
  canReadVariable?: boolean;
  canUpdateVariable?: boolean;
  canLock?: boolean;
  canUnlock?: boolean;
  canForceUnlock?: boolean;
  canUpdate?: boolean;
}

export interface WorkspaceSummary extends LinkedWorkspace {
  permissions: WorkspacePermissionsSummary;
  locked?: boolean;
  autoApply?: boolean;
  terraformVersion?: string;
  executionMode?: string;
  /** The workspace's page on the service (from links.self-html), absolute. */
  webUrl?: string;
  /** The current run, when the service included it. */
  currentRun?: RunSummary;
}

export interface WorkspacesParams extends HostParams {
  organization: string;
  /** Fuzzy name search (`search[name]`). */
  search?: string;
  pageNumber?: number;
  pageSize?: number;
}

/** client → server: one page of an organization's workspaces, with permissions and current run. */
export const workspacesRequest = new RequestType<WorkspacesParams, { workspaces: WorkspaceSummary[]; page: PageInfo }, void>('hcpTerraform/workspaces');

export interface WorkspaceParams extends HostParams {
  workspaceId: string;
}

/** client → server: one workspace by id, with permissions and current run (for pinned and linked workspaces). */
export const workspaceRequest = new RequestType<WorkspaceParams, WorkspaceSummary, void>('hcpTerraform/workspace');

export interface WatchWorkspacesParams extends HostParams {
  /** The workspaces a client view shows: the watcher lists their runs (within its budget) and reports changes. */
  workspaceIds: string[];
}

/**
 * client → server: the workspaces the client is showing besides the linked ones (pinned, expanded); replaces the
 * previous list for that host. An empty list stops watching them. Linked workspaces are always watched.
 */
export const watchWorkspacesNotification = new NotificationType<WatchWorkspacesParams>('hcpTerraform/watchWorkspaces');

export interface FolderParams {
  /** File URI of a module folder (as in LinkedFolder.folderUri) or of a file in it. */
  folderUri: string;
}

export interface ResourceAddress {
  /** `aws_instance.web`, `data.aws_ami.ubuntu`, `module.net.aws_vpc.main` (instances are not expanded). */
  address: string;
  /** File URI and zero-based line of the block. */
  uri: string;
  line: number;
  /** `resource` or `data`. */
  kind: 'resource' | 'data' | 'module';
}

/** client → server: the resources, data sources and module calls declared in a folder's code (for target/replace picks). */
export const resourceAddressesRequest = new RequestType<FolderParams, ResourceAddress[], void>('hcpTerraform/resourceAddresses');

export interface LinkFolderParams extends FolderParams {
  organization: string;
  workspaceName: string;
  /** Omitted = keep the cloud block's hostname, or write none when the host is app.terraform.io. */
  hostname?: string;
}

/**
 * client → server: the edit that links a folder to a workspace: updates the existing `cloud` block's organization and
 * workspaces.name, or adds a `cloud` block inside the `terraform` block (or a new `terraform` block). The client applies
 * it with workspace/applyEdit semantics; the server does not write files itself.
 */
export const linkFolderEditRequest = new RequestType<LinkFolderParams, { edit: import('vscode-languageserver-protocol').WorkspaceEdit; file: string }, void>(
  'hcpTerraform/linkFolderEdit',
);

// ---------------------------------------------------------------------------------------------------------------
// Plans on the code: what the latest (or a chosen) plan does to each resource block of a linked folder.

/** What a plan does to an instance (Terraform's JSON plan actions, folded): `read` for data sources read at apply. */
export type PlanChangeAction = 'create' | 'update' | 'replace' | 'delete' | 'read' | 'no-op';

export interface PlanInstanceChange {
  /** `module.net.aws_vpc.main["a"]`. */
  address: string;
  action: PlanChangeAction;
  /** Why it is replaced (`requested`, `cannot update`, `tainted`…), from the plan's action_reason. */
  reason?: string;
  /** Top-level attributes that change; `after` omitted when known only after apply, values omitted when sensitive. */
  attributes: Array<{ name: string; before?: unknown; after?: unknown; unknownAfter?: boolean; sensitive?: boolean }>;
}

export interface PlanBlockVerdict {
  /** The `resource` / `data` block's file URI and the range of its first line. */
  uri: string;
  range: import('vscode-languageserver-protocol').Range;
  /** `aws_instance.web` or `module.net.aws_vpc.main` as written (instances are grouped here). */
  address: string;
  /** The strongest action among its instances (replace > delete > create > update > read > no-op). */
  action: PlanChangeAction;
  /** What the code lens says: `+ create`, `~ update in place (3)`, `-/+ replace (requested)`, `no changes`, `3 of 5 instances change`. */
  label: string;
  instances: PlanInstanceChange[];
  /** Marked by a refresh-only plan's resource_drift. */
  drifted?: boolean;
}

export interface PlanOverlay {
  /** The module folder (as in LinkedFolder.folderUri) the overlay covers. */
  folderUri: string;
  hostname: string;
  workspaceId: string;
  runId: string;
  planId: string;
  runMessage?: string;
  /** ISO time the plan finished. */
  plannedAt?: string;
  /**
   * A file of the folder (or of a local module it maps into) was edited after the overlay was made: the verdicts may
   * be out of date. (The server compares with the time it put the plan on the code, on its own clock.)
   */
  stale: boolean;
  /** The run's status when the overlay was last built (`applied`: the changes have been made). */
  runStatus?: string;
  /** A refresh-only plan: its blocks say what drifted, not what an apply would change. */
  refreshOnly?: boolean;
  blocks: PlanBlockVerdict[];
  /** Changes with no block in the folder's code: destroyed resources whose block is gone, remote modules' resources. */
  unmatched: PlanInstanceChange[];
}

/** client → server: the overlay the server shows for a folder now; null when there is none (no plan, turned off). */
export const planOverlayRequest = new RequestType<FolderParams, PlanOverlay | null, void>('hcpTerraform/planOverlay');

/** server → client: a folder's overlay appeared, changed (new plan, stale) or went away (`overlay: null`). */
export const planOverlayChangedNotification = new NotificationType<{ folderUri: string; overlay: PlanOverlay | null }>('hcpTerraform/planOverlayChanged');

export interface PlanResourceChangesParams extends HostParams {
  runId: string;
}

/** client → server: a run's planned resource changes, each with its block when the linked folder's code has one. */
export const planResourceChangesRequest = new RequestType<
  PlanResourceChangesParams,
  { changes: Array<PlanInstanceChange & { uri?: string; range?: import('vscode-languageserver-protocol').Range }> },
  void
>('hcpTerraform/planResourceChanges');

// ---------------------------------------------------------------------------------------------------------------
// Notifications (server → client)

export interface RunsChangedParams {
  hostname: string;
  workspaceId: string;
  /** Only the runs that changed since the last notification, each once. */
  runs: RunSummary[];
}

/** server → client: runs the watcher saw change (status or actions). Sent only when something changed. */
export const runsChangedNotification = new NotificationType<RunsChangedParams>('hcpTerraform/runsChanged');

/** server → client: what the server knows about a folder's workspace changed (link, variables, runs, sign-in). */
export const workspaceChangedNotification = new NotificationType<LinkedFolder>('hcpTerraform/workspaceChanged');

export interface SignInNeededParams {
  hostname: string;
  /** The address to sign in at. */
  address: string;
  /** Why: no token found, or the service refused the token (401). */
  reason: string;
}

/** server → client: a linked folder needs a token for this host (the client offers to sign in). Once per host and reason. */
export const signInNeededNotification = new NotificationType<SignInNeededParams>('hcpTerraform/signInNeeded');

// ---------------------------------------------------------------------------------------------------------------
// Commands (client → server via workspace/executeCommand, one object argument each)

export const serverCommandVerbs = [
  'queuePlan',
  'planLocalChanges',
  'applyRun',
  'discardRun',
  'cancelRun',
  'forceCancelRun',
  'forceExecuteRun',
  'createChangeRequest',
  'archiveChangeRequest',
  'generateOrganizationToken',
  'deleteOrganizationToken',
  'createVariable',
  'updateVariable',
  'deleteVariable',
  'showPlanOnCode',
  'showInfo',
] as const;
export type ServerCommandVerb = (typeof serverCommandVerbs)[number];

export function serverCommand(verb: ServerCommandVerb): string {
  return `hcpTerraform.server.${verb}`;
}

/**
 * Every create-run attribute of the spec (§4.2), camelCased as the API client takes them (run variables are HCL
 * literals, validated before sending; engineVersion only with planOnly), plus two ways of promotion.
 */
export interface QueuePlanArguments extends HostParams, CreateRunInput {
  /** Promotion: use the configuration version another run used... */
  configurationFromRunId?: string;
  /** ...or the current one of another workspace (configurationVersionId names one directly). */
  configurationFromWorkspaceId?: string;
}

export interface PlanLocalChangesArguments extends HostParams {
  /** File URI of the module folder to upload. */
  folderUri: string;
  workspaceId: string;
  message?: string;
}

export interface RunActionArguments extends HostParams {
  runId: string;
  comment?: string;
}

export interface CreateChangeRequestArguments extends HostParams {
  organization: string;
  workspaceId: string;
  /** Required by the service; a code action leaves it out when the client asks its user for it (prompts). */
  subject?: string;
  /** Markdown. */
  message: string;
  /** More workspaces of the same organization to attach it to, in the same bulk action (#10's multi-select). */
  workspaceIds?: string[];
}

export interface ArchiveChangeRequestArguments extends HostParams {
  changeRequestId: string;
}

export interface OrganizationTokenArguments extends HostParams {
  organization: string;
  /** ISO 8601; omitted = never expires. generateOrganizationToken only. */
  expiredAt?: string;
}

export interface CreateVariableArguments extends HostParams {
  workspaceId: string;
  key: string;
  /** `engine` or `env` (others are passed through). */
  category: string;
  /** Required: the client asks the user when a quick fix could not know it. */
  value?: string;
  hcl?: boolean;
  sensitive?: boolean;
  description?: string;
}

export interface UpdateVariableArguments extends HostParams {
  workspaceId: string;
  variableId: string;
  key?: string;
  value?: string;
  category?: string;
  hcl?: boolean;
  sensitive?: boolean;
  description?: string;
}

export interface DeleteVariableArguments extends HostParams {
  workspaceId: string;
  variableId: string;
}

/** Put this run's plan on the code of the folder linked to its workspace (instead of the workspace's latest plan). */
export interface ShowPlanOnCodeArguments extends HostParams {
  runId: string;
}

export interface ServerCommandArguments {
  queuePlan: QueuePlanArguments;
  planLocalChanges: PlanLocalChangesArguments;
  applyRun: RunActionArguments;
  discardRun: RunActionArguments;
  cancelRun: RunActionArguments;
  forceCancelRun: RunActionArguments;
  forceExecuteRun: Omit<RunActionArguments, 'comment'>;
  createChangeRequest: CreateChangeRequestArguments;
  archiveChangeRequest: ArchiveChangeRequestArguments;
  generateOrganizationToken: OrganizationTokenArguments;
  deleteOrganizationToken: Omit<OrganizationTokenArguments, 'expiredAt'>;
  createVariable: CreateVariableArguments;
  updateVariable: UpdateVariableArguments;
  deleteVariable: DeleteVariableArguments;
  showPlanOnCode: ShowPlanOnCodeArguments;
  /**
   * The command of a text-only code lens (a run's status, a plan verdict): it does nothing. Lenses need a command
   * to be shown at all in most editors, and an empty command id is not a command.
   */
  showInfo: Record<string, never>;
}

export interface ServerCommandResults {
  queuePlan: RunSummary;
  planLocalChanges: RunSummary;
  /** The run as read right after the action (its status changes asynchronously). */
  applyRun: RunSummary;
  discardRun: RunSummary;
  cancelRun: RunSummary;
  forceCancelRun: RunSummary;
  forceExecuteRun: RunSummary;
  /** The service's answer to the bulk action (its shape is not specified). */
  createChangeRequest: { id: string; type: string };
  archiveChangeRequest: ChangeRequestSummary;
  /** The secret is returned here once, and never logged or kept by the server. */
  generateOrganizationToken: { id: string; token: string; expiredAt?: string };
  deleteOrganizationToken: { deleted: true };
  createVariable: VariableSummary;
  updateVariable: VariableSummary;
  deleteVariable: { deleted: true };
  /** The folders whose overlay now shows the run's plan (none when no open folder is linked to its workspace). */
  showPlanOnCode: { folderUris: string[] };
  showInfo: null;
}

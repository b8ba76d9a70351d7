/** Runs (spec §4.2): create, read, both lists with every filter, and the five actions. */
import { pageFetcher } from './lists';
import type { Page, PageFetcher } from './pagination';
import { segment } from './query';
import type { QueryParams } from './query';
import type { CallOptions, Requester } from './requester';
import type { OperationName } from './operations';
import { runDocumentSchema, runListDocumentSchema } from './schemas/runs';
import type { Run } from './schemas/runs';
import type { AnyResource } from './schemas/jsonapi';

/** Known values for display and completion; any other string is sent as given (the service owns these lists). */
export type RunOperation = 'plan_only' | 'plan_and_apply' | 'save_plan' | 'refresh_only' | 'destroy' | 'empty_apply' | (string & {});
export type RunSource = 'svc-ui' | 'svc-api' | 'svc-configuration-version' | (string & {});
export type RunStatusGroup = 'non_final' | 'final' | 'discardable' | (string & {});
export type RunInclude =
  | 'plan'
  | 'apply'
  | 'created_by'
  | 'cost_estimate'
  | 'configuration_version'
  | 'configuration_version.ingress_attributes';

export const allRunOperations: readonly RunOperation[] = [
  'plan_only', 'plan_and_apply', 'save_plan', 'refresh_only', 'destroy', 'empty_apply',
];

/** The request attributes of POST /runs; anything left undefined takes the service's default (spec §4.2). */
export interface CreateRunInput {
  workspaceId: string;
  /** Default: the workspace's most recently used configuration version. */
  configurationVersionId?: string;
  message?: string;
  allowEmptyApply?: boolean;
  allowConfigGeneration?: boolean;
  autoApply?: boolean;
  debuggingMode?: boolean;
  isDestroy?: boolean;
  refresh?: boolean;
  refreshOnly?: boolean;
  replaceAddrs?: string[];
  targetAddrs?: string[];
  /** Run-specific variables; every value is an HCL literal (a string needs its own quotes: `"\"eu\""`). */
  variables?: Array<{ key: string; value: string }>;
  planOnly?: boolean;
  savePlan?: boolean;
  /** Valid only with planOnly. */
  engineVersion?: string;
}

const createRunAttributeNames = {
  message: 'message',
  allowEmptyApply: 'allow-empty-apply',
  allowConfigGeneration: 'allow-config-generation',
  autoApply: 'auto-apply',
  debuggingMode: 'debugging-mode',
  isDestroy: 'is-destroy',
  refresh: 'refresh',
  refreshOnly: 'refresh-only',
  replaceAddrs: 'replace-addrs',
  targetAddrs: 'target-addrs',
  variables: 'variables',
  planOnly: 'plan-only',
  savePlan: 'save-plan',
  engineVersion: 'engine-version',
} as const satisfies Record<Exclude<keyof CreateRunInput, 'workspaceId' | 'configurationVersionId'>, string>;

export interface RunListOptions {
  pageNumber?: number;
  pageSize?: number;
  operations?: RunOperation[];
  statuses?: string[];
  agentPoolNames?: string[];
  sources?: RunSource[];
  statusGroup?: RunStatusGroup;
  /** A year (2025) or 'year' for the past twelve months. */
  timeframe?: number | 'year';
  searchUser?: string;
  searchCommit?: string;
  /** Matches username, commit, run id or message; the service ignores it when searchUser or searchCommit is set. */
  searchBasic?: string;
  include?: RunInclude[];
}

export interface OrganizationRunListOptions extends RunListOptions {
  workspaceNames?: string[];
}

export interface RunDocument {
  run: Run;
  included: AnyResource[];
}

export interface RunActionOptions extends CallOptions {
  comment?: string;
}

export class RunsApi {
  constructor(private readonly requester: Requester) {}

  async create(input: CreateRunInput, options: CallOptions = {}): Promise<Run> {
    const attributes: Record<string, unknown> = {};
    for (const [name, wireName] of Object.entries(createRunAttributeNames)) {
      const value = input[name as keyof typeof createRunAttributeNames];
      if (value !== undefined) attributes[wireName] = value;
    }
    const relationships: Record<string, unknown> = { workspace: { data: { type: 'workspaces', id: input.workspaceId } } };
    if (input.configurationVersionId !== undefined) {
      relationships['configuration-version'] = {
        data: { type: 'configuration-versions', id: input.configurationVersionId },
      };
    }
    const result = await this.requester.call({
      operation: 'createRun',
      method: 'POST',
      path: '/runs',
      body: { data: { type: 'runs', attributes, relationships } },
      schema: runDocumentSchema,
      // A run variable may carry a secret (there is no sensitive flag for them): never echoed in an error.
      secrets: (input.variables ?? []).flatMap(({ value }) => [value, value.replace(/^\s*"(.*)"\s*$/s, '$1')]),
      ...options,
    });
    return result.data.data;
  }

  async get(runId: string, options: CallOptions & { include?: RunInclude[] } = {}): Promise<RunDocument> {
    const { include, ...callOptions } = options;
    const result = await this.requester.call({
      operation: 'getRun',
      method: 'GET',
      path: `/runs/${segment(runId)}`,
      query: { include },
      schema: runDocumentSchema,
      ...callOptions,
    });
    return { run: result.data.data, included: result.data.included ?? [] };
  }

  /** One page of a workspace's runs. plan_only runs are left out by the service unless `operations` lists all of them. */
  listForWorkspace(workspaceId: string, filters: RunListOptions = {}, options: CallOptions = {}): Promise<Page<Run>> {
    return this.workspacePages(workspaceId, filters)({ pageNumber: filters.pageNumber ?? 1 }, options.signal);
  }

  /** One page of an organization's runs (the last year unless `timeframe` says otherwise). */
  listForOrganization(organization: string, filters: OrganizationRunListOptions = {}, options: CallOptions = {}): Promise<Page<Run>> {
    return this.organizationPages(organization, filters)({ pageNumber: filters.pageNumber ?? 1 }, options.signal);
  }

  /** A page fetcher for `iteratePages`/`iterateItems` over a workspace's runs. */
  workspacePages(workspaceId: string, filters: RunListOptions = {}): PageFetcher<Run> {
    return this.pages('listWorkspaceRuns', `/workspaces/${segment(workspaceId)}/runs`, runListQuery(filters), filters.pageSize);
  }

  organizationPages(organization: string, filters: OrganizationRunListOptions = {}): PageFetcher<Run> {
    const query = { ...runListQuery(filters), 'filter[workspace_names]': filters.workspaceNames };
    return this.pages('listOrganizationRuns', `/organizations/${segment(organization)}/runs`, query, filters.pageSize);
  }

  /** Applies a run paused for confirmation. 202: the apply is queued, the run's status changes later. */
  apply(runId: string, options: RunActionOptions = {}): Promise<void> {
    return this.action('applyRun', runId, 'apply', options);
  }

  discard(runId: string, options: RunActionOptions = {}): Promise<void> {
    return this.action('discardRun', runId, 'discard', options);
  }

  cancel(runId: string, options: RunActionOptions = {}): Promise<void> {
    return this.action('cancelRun', runId, 'cancel', options);
  }

  forceCancel(runId: string, options: RunActionOptions = {}): Promise<void> {
    return this.action('forceCancelRun', runId, 'force-cancel', options);
  }

  /** Takes no body (spec §4.2). */
  forceExecute(runId: string, options: CallOptions = {}): Promise<void> {
    return this.action('forceExecuteRun', runId, 'force-execute', { ...options, comment: undefined });
  }

  private pages(operation: OperationName, path: string, query: QueryParams, pageSize: number | undefined): PageFetcher<Run> {
    return pageFetcher(this.requester, { operation, path, query, pageSize, schema: runListDocumentSchema, bucket: 'run-list' });
  }

  private async action(operation: OperationName, runId: string, action: string, options: RunActionOptions): Promise<void> {
    const { comment, ...callOptions } = options;
    await this.requester.call({
      operation,
      method: 'POST',
      path: `/runs/${segment(runId)}/actions/${action}`,
      // The comment is optional; without one no body is sent (the Content-Type still is: the service requires it).
      body: comment === undefined ? undefined : { comment },
      ...callOptions,
    });
  }
}

function runListQuery(filters: RunListOptions): QueryParams {
  return {
    'filter[operation]': filters.operations,
    'filter[status]': filters.statuses,
    'filter[agent_pool_names]': filters.agentPoolNames,
    'filter[source]': filters.sources,
    'filter[status_group]': filters.statusGroup,
    'filter[timeframe]': filters.timeframe,
    'search[user]': filters.searchUser,
    'search[commit]': filters.searchCommit,
    'search[basic]': filters.searchBasic,
    include: filters.include,
  };
}

// The custom requests behind the client's views (declared in protocol.ts): runs with filters and pages, run
// details with plan/apply and log text, change requests, variables and the subscription. Each answers plain data
// or a ResponseError that says what to do; a sensitive variable's value is never included.
import type { Connection } from 'vscode-languageserver';
import type { Page, Run, RunInclude } from '../api';
import { isFinalRunStatus, relatedId, ServiceError } from '../api';
import type { CoreContext } from '../commands/context';
import { resolveTarget } from '../commands/context';
import type { Target } from '../commands/context';
import { invalidParams, toResponseError } from '../commands/errors';
import { parseRequestParams } from '../commands/requestParams';
import { checkHclValue, summarizeVariable } from '../commands/variableCommands';
import { workspaceVariables } from '../commands/readBackVariables';
import { withUserNames } from '../commands/workspaceCommands';
import type { PageInfo, PhaseDetails, RunDetails, RunDetailsParams, RunsParams, RunsResult, SubscriptionResult } from '../protocol';
import { changeRequestsRequest, organizationTokenStatusRequest, runDetailsRequest, runsRequest, subscriptionRequest, validateHclValueRequest, variablesRequest } from '../protocol';
import type { OrganizationTokenStatus } from '../protocol';
import { freshRead } from './freshRead';
import { workspaceOperationQuery } from './runOperationFilter';
import { summarizeRun } from './runSummary';

export function registerViewRequests(connection: Connection, context: CoreContext): void {
  connection.onRequest(runsRequest, (params) => guard(() => listRuns(context, parseRequestParams('hcpTerraform/runs', params))));
  connection.onRequest(runDetailsRequest, (params) => guard(() => runDetails(context, parseRequestParams('hcpTerraform/runDetails', params))));
  connection.onRequest(changeRequestsRequest, (raw) =>
    guard(async () => {
      const params = parseRequestParams('hcpTerraform/changeRequests', raw);
      const target = resolveTarget(context, params);
      const page = await target.client.changeRequests.list(params.workspaceName, { pageNumber: positive(params.pageNumber), pageSize: positive(params.pageSize) });
      return { changeRequests: await withUserNames(target, page.items), page: pageInfo(page) };
    }),
  );
  connection.onRequest(variablesRequest, (raw) =>
    guard(async () => {
      const params = parseRequestParams('hcpTerraform/variables', raw);
      const variables = await workspaceVariables(resolveTarget(context, params), params.workspaceId);
      return variables.map(summarizeVariable);
    }),
  );
  connection.onRequest(subscriptionRequest, (raw) =>
    guard(async (): Promise<SubscriptionResult> => {
      const params = parseRequestParams('hcpTerraform/subscription', raw);
      const target = resolveTarget(context, params);
      try {
        const { subscription, featureSet } = await target.client.organization.getSubscription(params.organization);
        const a = subscription.attributes;
        const result: SubscriptionResult = {
          available: true,
          subscription: {
            id: subscription.id,
            ...(typeof a['is-active'] === 'boolean' ? { isActive: a['is-active'] } : {}),
            ...(a['start-at'] ? { startAt: a['start-at'] } : {}),
            ...(a['end-at'] ? { endAt: a['end-at'] } : {}),
            ...(typeof a['runs-ceiling'] === 'number' ? { runsCeiling: a['runs-ceiling'] } : {}),
            ...(typeof a['agents-ceiling'] === 'number' ? { agentsCeiling: a['agents-ceiling'] } : {}),
            attributes: { ...a },
          },
        };
        if (featureSet) {
          const flags: Record<string, boolean> = {};
          for (const [name, value] of Object.entries(featureSet.attributes)) if (typeof value === 'boolean') flags[name] = value;
          result.featureSet = {
            id: featureSet.id,
            ...(featureSet.attributes.name ? { name: featureSet.attributes.name } : {}),
            ...(featureSet.attributes.identifier ? { identifier: featureSet.attributes.identifier } : {}),
            flags,
            attributes: { ...featureSet.attributes },
          };
        }
        return result;
      } catch (error) {
        if (error instanceof ServiceError && error.status === 404) {
          // The same 404 means "no such interface" on Terraform Enterprise and "not allowed" on HCP Terraform: the
          // service's identity headers tell which, so the view can say "not available on this edition".
          const ping = await target.client.account.ping().catch(() => undefined);
          const enterprise = Boolean(ping?.enterpriseVersion) || /enterprise/i.test(ping?.appName ?? '');
          if (enterprise) return { available: false, edition: 'enterprise', reason: 'Not available on this edition: Terraform Enterprise has no subscription interface.' };
          return { available: false, ...(ping ? { edition: 'hosted' as const } : {}), reason: `No subscription for ${params.organization}: Terraform Enterprise has none, or this token may not read it.` };
        }
        throw error;
      }
    }),
  );
  connection.onRequest(organizationTokenStatusRequest, (raw) =>
    guard(async (): Promise<OrganizationTokenStatus> => {
      const params = parseRequestParams('hcpTerraform/organizationTokenStatus', raw);
      const target = resolveTarget(context, params);
      try {
        const token = await target.client.organization.getToken(params.organization);
        const a = token.attributes;
        return { exists: true, id: token.id, ...(a['created-at'] ? { createdAt: a['created-at'] } : {}), ...(a['expired-at'] ? { expiredAt: a['expired-at'] } : {}), ...(a['last-used-at'] ? { lastUsedAt: a['last-used-at'] } : {}) };
      } catch (error) {
        if (error instanceof ServiceError && error.status === 404) {
          return { exists: false, reason: `${params.organization} has no organization token, or this account may not manage it (only the owners team may).` };
        }
        throw error;
      }
    }),
  );
  connection.onRequest(validateHclValueRequest, (raw) =>
    guard(async () => {
      const params = parseRequestParams('hcpTerraform/validateHclValue', raw);
      return checkHclValue(context, params.value);
    }),
  );
}

async function listRuns(context: CoreContext, params: RunsParams): Promise<RunsResult> {
  if (!params.workspaceId && !params.organization) throw invalidParams('Send {"workspaceId": "ws-…"} or {"organization": "…"} to list runs.');
  const target = resolveTarget(context, params);
  const operations = params.workspaceId ? workspaceOperationQuery(strings(params.operations)) : { operations: strings(params.operations) };
  const filters = {
    pageNumber: positive(params.pageNumber),
    pageSize: positive(params.pageSize),
    operations: operations.operations,
    statuses: strings(params.statuses),
    statusGroup: typeof params.statusGroup === 'string' ? params.statusGroup : undefined,
    sources: strings(params.sources),
    timeframe: typeof params.timeframe === 'number' || params.timeframe === 'year' ? params.timeframe : undefined,
    searchBasic: typeof params.search === 'string' && params.search ? params.search : undefined,
    // Counts and who queued each run come with the list, so the view needs no request per run.
    include: ['plan', 'apply', 'created_by'] as RunInclude[],
  };
  const page: Page<Run> = params.workspaceId
    ? await target.client.runs.listForWorkspace(params.workspaceId, filters)
    : await target.client.runs.listForOrganization(params.organization!, { ...filters, workspaceNames: strings(params.workspaceNames) });
  // The user looked and the service answered: the watcher need not wait out a backoff from an outage.
  context.watcher.wake(target.hostname);
  if (!operations.keep) return { runs: page.items.map((run) => summarizeRun(run, page.included)), page: pageInfo(page) };
  // Narrowed: the service's counts are of every operation, so only the way to the next page is kept.
  const runs = page.items.filter(operations.keep).map((run) => summarizeRun(run, page.included));
  return { runs, page: { current: page.currentPage, ...(page.nextPage !== undefined ? { next: page.nextPage } : {}) } };
}

async function runDetails(context: CoreContext, params: RunDetailsParams | undefined): Promise<RunDetails> {
  if (!params || typeof params.runId !== 'string' || !params.runId) throw invalidParams('Send {"runId": "run-…"}.');
  const target = resolveTarget(context, params);
  // Several reads (the run, its phases, their logs): a change of the run reported meanwhile must not be undone by it.
  return freshRead(() => context.watcher.changesReported(target.hostname, params.runId), () => readRunDetails(context, target, params));
}

async function readRunDetails(context: CoreContext, target: Target, params: RunDetailsParams): Promise<RunDetails> {
  const { run, included } = await target.client.runs.get(params.runId, { include: ['plan', 'apply', 'created_by'] });
  const details: RunDetails = { run: summarizeRun(run, included) };
  // The user is looking at this run: follow it while it is active, so its view updates through runsChanged.
  const workspaceId = relatedId(run, 'workspace');
  if (workspaceId && !isFinalRunStatus(run.attributes.status)) context.watcher.followRun(target.hostname, workspaceId, run.id, run);
  const planId = relatedId(run, 'plan');
  const applyId = relatedId(run, 'apply');
  const costEstimateId = relatedId(run, 'cost-estimate');
  const [plan, apply, costEstimate, policyChecks] = await Promise.all([
    planId ? target.client.phases.getPlan(planId) : undefined,
    applyId ? target.client.phases.getApply(applyId) : undefined,
    costEstimateId ? target.client.phases.getCostEstimate(costEstimateId).catch(() => undefined) : undefined,
    // Optional detail: an organization without policies (or a token that may not read them) just shows none.
    target.client.phases.listPolicyChecks(params.runId).catch(() => []),
  ]);
  if (policyChecks.length > 0) {
    details.policyChecks = policyChecks.map((check) => {
      const r = check.attributes.result;
      const result = r ? { ...(typeof r.passed === 'number' ? { passed: r.passed } : {}), ...(typeof r['soft-failed'] === 'number' ? { softFailed: r['soft-failed'] } : {}), ...(typeof r['hard-failed'] === 'number' ? { hardFailed: r['hard-failed'] } : {}), ...(typeof r['advisory-failed'] === 'number' ? { advisoryFailed: r['advisory-failed'] } : {}) } : undefined;
      return { id: check.id, status: check.attributes.status, ...(result ? { result } : {}) };
    });
  }
  if (plan) details.plan = await phaseDetails(target.client, plan, params.planLogOffset);
  if (apply) details.apply = await phaseDetails(target.client, apply, params.applyLogOffset);
  if (costEstimate) {
    const a = costEstimate.attributes as Record<string, unknown>;
    details.costEstimate = {
      id: costEstimate.id,
      status: String(a.status ?? 'unknown'),
      ...(typeof a['proposed-monthly-cost'] === 'string' ? { proposedMonthlyCost: a['proposed-monthly-cost'] } : {}),
      ...(typeof a['delta-monthly-cost'] === 'string' ? { deltaMonthlyCost: a['delta-monthly-cost'] } : {}),
    };
  }
  return details;
}

type Phase = { id: string; attributes: Record<string, unknown> };

async function phaseDetails(client: ReturnType<typeof resolveTarget>['client'], phase: Phase, logOffset: number | undefined): Promise<PhaseDetails> {
  const a = phase.attributes;
  const details: PhaseDetails = { id: phase.id, status: String(a.status ?? 'unknown') };
  for (const [wire, name] of [['resource-additions', 'resourceAdditions'], ['resource-changes', 'resourceChanges'], ['resource-destructions', 'resourceDestructions']] as const) {
    if (typeof a[wire] === 'number') details[name] = a[wire] as number;
  }
  const logUrl = a['log-read-url'];
  if (typeof logOffset === 'number' && logOffset >= 0 && typeof logUrl === 'string' && logUrl) {
    details.log = await client.phases.readLog(logUrl, { offset: Math.floor(logOffset) });
  }
  return details;
}

function pageInfo(page: Page<unknown>): PageInfo {
  const info: PageInfo = { current: page.currentPage };
  if (page.nextPage !== undefined) info.next = page.nextPage;
  const totalPages = page.pagination?.['total-pages'];
  const totalCount = page.pagination?.['total-count'];
  if (typeof totalPages === 'number') info.totalPages = totalPages;
  if (typeof totalCount === 'number') info.totalCount = totalCount;
  return info;
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((item) => typeof item === 'string') && value.length > 0 ? (value as string[]) : undefined;
}

async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toResponseError(error);
  }
}

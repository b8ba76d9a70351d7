/**
 * The fault matrix's two axes: every operation the API client performs (operations.ts), each with how to call it
 * against a scene built once, and every fault the emulator injects. A write's `prepare` makes a fresh target for
 * each fault (a new variable to delete, a new paused run to apply), so every case starts from the same state.
 */
import type { OperationName, Run, ServiceClient } from '../../../server/src/api/index';
import { relatedId } from '../../../server/src/api/index';
import type { FaultSpec } from '../../../emulator/src/http/faults';
import { tarGz } from './archive';
import { cleanConfiguration } from './scenario';

export interface Scene {
  workspaceId: string;
  /** A run paused for confirmation (plan finished: logs, JSON, cost estimate, policy checks). */
  pausedRun: Run;
  subscriptionId: string;
  /** A run paused for confirmation, made fresh for one case. */
  freshPausedRun(): Promise<Run>;
  /** A run still planning, made fresh for one case. */
  freshPlanningRun(): Promise<Run>;
  /** Arms a 403 on the plan's unredacted JSON (until the case ends), so the client falls back to the redacted one. */
  refuseUnredactedPlanJson(planId: string): void;
}

export interface MatrixOperation {
  operation: OperationName;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sets up the target (fresh for writes) and returns the exact path the call sends, and the call. */
  prepare(client: ServiceClient, scene: Scene): Promise<{ path: string; call: (client: ServiceClient) => Promise<unknown> }>;
}

let unique = 0;
const next = (prefix: string) => `${prefix}_${process.pid}_${++unique}`;

const reads: MatrixOperation[] = [
  { operation: 'ping', method: 'GET', prepare: async () => ({ path: '/api/v2/ping', call: (c) => c.account.ping() }) },
  { operation: 'getAccountDetails', method: 'GET', prepare: async () => ({ path: '/api/v2/account/details', call: (c) => c.account.details() }) },
  {
    operation: 'getOrganizationSubscription',
    method: 'GET',
    prepare: async () => ({ path: '/api/v2/organizations/acme-demo/subscription', call: (c) => c.organization.getSubscription('acme-demo') }),
  },
  {
    operation: 'getSubscription',
    method: 'GET',
    prepare: async (_, s) => ({ path: `/api/v2/subscriptions/${s.subscriptionId}`, call: (c) => c.organization.getSubscriptionById(s.subscriptionId) }),
  },
  { operation: 'getRun', method: 'GET', prepare: async (_, s) => ({ path: `/api/v2/runs/${s.pausedRun.id}`, call: (c) => c.runs.get(s.pausedRun.id) }) },
  {
    operation: 'listWorkspaceRuns',
    method: 'GET',
    prepare: async (_, s) => ({ path: `/api/v2/workspaces/${s.workspaceId}/runs`, call: (c) => c.runs.listForWorkspace(s.workspaceId) }),
  },
  {
    operation: 'listOrganizationRuns',
    method: 'GET',
    prepare: async () => ({ path: '/api/v2/organizations/acme-demo/runs', call: (c) => c.runs.listForOrganization('acme-demo') }),
  },
  {
    operation: 'listChangeRequests',
    method: 'GET',
    prepare: async () => ({ path: '/api/v2/workspaces/demo-app/change-requests', call: (c) => c.changeRequests.list('demo-app') }),
  },
  {
    operation: 'getChangeRequest',
    method: 'GET',
    prepare: async (client, s) => {
      const id = await newChangeRequest(client, s);
      return { path: `/api/v2/workspaces/change-requests/${id}`, call: (c) => c.changeRequests.get(id) };
    },
  },
  {
    operation: 'listVariables',
    method: 'GET',
    prepare: async () => ({ path: '/api/v2/vars', call: (c) => c.variables.list({ organization: 'acme-demo', workspace: 'demo-app' }) }),
  },
  { operation: 'listWorkspaces', method: 'GET', prepare: async () => ({ path: '/api/v2/organizations/acme-demo/workspaces', call: (c) => c.workspaces.list('acme-demo') }) },
  { operation: 'listOrganizations', method: 'GET', prepare: async () => ({ path: '/api/v2/organizations', call: (c) => c.organization.pages()({ pageNumber: 1 }) }) },
  { operation: 'getWorkspace', method: 'GET', prepare: async (_, s) => ({ path: `/api/v2/workspaces/${s.workspaceId}`, call: (c) => c.workspaces.getById(s.workspaceId) }) },
  {
    operation: 'getConfigurationVersion',
    method: 'GET',
    prepare: async (_, s) => {
      const id = relatedId(s.pausedRun, 'configuration-version')!;
      return { path: `/api/v2/configuration-versions/${id}`, call: (c) => c.configurationVersions.get(id) };
    },
  },
  { operation: 'getPlan', method: 'GET', prepare: async (_, s) => phase(s, 'plan', (c, id) => c.phases.getPlan(id), '/api/v2/plans/') },
  { operation: 'getApply', method: 'GET', prepare: async (_, s) => phase(s, 'apply', (c, id) => c.phases.getApply(id), '/api/v2/applies/') },
  {
    operation: 'getCostEstimate',
    method: 'GET',
    prepare: async (_, s) => phase(s, 'cost-estimate', (c, id) => c.phases.getCostEstimate(id), '/api/v2/cost-estimates/'),
  },
  {
    operation: 'listPolicyChecks',
    method: 'GET',
    prepare: async (_, s) => ({ path: `/api/v2/runs/${s.pausedRun.id}/policy-checks`, call: (c) => c.phases.listPolicyChecks(s.pausedRun.id) }),
  },
  {
    operation: 'readLog',
    method: 'GET',
    prepare: async (client, s) => {
      const url = (await client.phases.getPlan(relatedId(s.pausedRun, 'plan')!)).attributes['log-read-url']!;
      return { path: new URL(url).pathname, call: (c) => c.phases.readLog(url) };
    },
  },
  { operation: 'readPlanJson', method: 'GET', prepare: async (_, s) => planJson(s, 'json-output') },
  {
    operation: 'readRedactedPlanJson',
    method: 'GET',
    prepare: async (_, s) => {
      s.refuseUnredactedPlanJson(relatedId(s.pausedRun, 'plan')!);
      return planJson(s, 'json-output-redacted');
    },
  },
];

const writes: MatrixOperation[] = [
  {
    operation: 'createRun',
    method: 'POST',
    prepare: async (_, s) => {
      const message = next('matrix run');
      return { path: '/api/v2/runs', call: (c) => c.runs.create({ workspaceId: s.workspaceId, message, planOnly: true }) };
    },
  },
  { operation: 'applyRun', method: 'POST', prepare: async (_, s) => runAction(await s.freshPausedRun(), 'apply', (c, id) => c.runs.apply(id)) },
  { operation: 'discardRun', method: 'POST', prepare: async (_, s) => runAction(await s.freshPausedRun(), 'discard', (c, id) => c.runs.discard(id)) },
  { operation: 'cancelRun', method: 'POST', prepare: async (_, s) => runAction(await s.freshPlanningRun(), 'cancel', (c, id) => c.runs.cancel(id)) },
  // The service refuses these two on a paused run (409/403): the matrix still proves each is sent once and typed.
  { operation: 'forceCancelRun', method: 'POST', prepare: async (_, s) => runAction(s.pausedRun, 'force-cancel', (c, id) => c.runs.forceCancel(id)) },
  { operation: 'forceExecuteRun', method: 'POST', prepare: async (_, s) => runAction(s.pausedRun, 'force-execute', (c, id) => c.runs.forceExecute(id)) },
  {
    operation: 'archiveChangeRequest',
    method: 'POST',
    prepare: async (client, s) => {
      const id = await newChangeRequest(client, s);
      return { path: `/api/v2/workspaces/change-requests/${id}`, call: (c) => c.changeRequests.archive(id) };
    },
  },
  {
    operation: 'createChangeRequest',
    method: 'POST',
    prepare: async (_, s) => ({
      path: '/api/v2/organizations/acme-demo/explorer/bulk-actions',
      call: (c) => c.changeRequests.create('acme-demo', { subject: next('matrix'), message: 'From the fault matrix.', targetIds: [s.workspaceId] }),
    }),
  },
  {
    operation: 'generateOrganizationToken',
    method: 'POST',
    prepare: async () => ({ path: '/api/v2/organizations/acme-demo/authentication-token', call: (c) => c.organization.generateToken('acme-demo') }),
  },
  {
    operation: 'deleteOrganizationToken',
    method: 'DELETE',
    prepare: async (client) => {
      await client.organization.generateToken('acme-demo');
      return { path: '/api/v2/organizations/acme-demo/authentication-token', call: (c) => c.organization.deleteToken('acme-demo') };
    },
  },
  {
    operation: 'createVariable',
    method: 'POST',
    prepare: async (_, s) => {
      const key = next('MATRIX');
      return { path: '/api/v2/vars', call: (c) => c.variables.create({ workspaceId: s.workspaceId, key, value: 'v', category: 'env' }) };
    },
  },
  {
    operation: 'updateVariable',
    method: 'PATCH',
    prepare: async (client, s) => {
      const variable = await client.variables.create({ workspaceId: s.workspaceId, key: next('MATRIX'), value: 'v', category: 'env' });
      return { path: `/api/v2/vars/${variable.id}`, call: (c) => c.variables.update(variable.id, { value: 'changed' }) };
    },
  },
  {
    operation: 'deleteVariable',
    method: 'DELETE',
    prepare: async (client, s) => {
      const variable = await client.variables.create({ workspaceId: s.workspaceId, key: next('MATRIX'), value: 'v', category: 'env' });
      return { path: `/api/v2/vars/${variable.id}`, call: (c) => c.variables.delete(variable.id) };
    },
  },
  {
    operation: 'createConfigurationVersion',
    method: 'POST',
    prepare: async (_, s) => ({
      path: `/api/v2/workspaces/${s.workspaceId}/configuration-versions`,
      call: (c) => c.configurationVersions.create(s.workspaceId, { autoQueueRuns: false }),
    }),
  },
  {
    operation: 'uploadConfiguration',
    method: 'PUT',
    prepare: async (client, s) => {
      const version = await client.configurationVersions.create(s.workspaceId, { autoQueueRuns: false });
      const url = version.attributes['upload-url']!;
      const archive = await tarGz(cleanConfiguration);
      return { path: new URL(url).pathname, call: (c) => c.configurationVersions.upload(url, archive) };
    },
  },
];

/** Cases where the emulator has nothing to inject, and why: the case then proves nothing and is skipped. */
export function inapplicable(operation: OperationName, fault: MatrixFault): string | undefined {
  if (fault === 'rate-limit' && (operation === 'readLog' || operation === 'uploadConfiguration')) return 'a pre-signed URL is outside the API: no 429 there';
  if (fault === 'truncate' && ['ping', 'applyRun', 'discardRun', 'cancelRun', 'readPlanJson', 'deleteOrganizationToken', 'deleteVariable', 'uploadConfiguration'].includes(operation)) {
    return 'the answer has no body to cut (204, 202, an empty 200 or a redirect)';
  }
  return undefined;
}

export const matrixOperations: readonly MatrixOperation[] = [...reads, ...writes];

export type MatrixFault = 'timeout' | 'status 500' | 'status 502' | 'status 503' | 'reset before' | 'reset after' | 'truncate' | 'malformed' | 'wrong-shape' | 'html' | 'rate-limit';

export const matrixFaults: readonly MatrixFault[] = [
  'timeout', 'status 500', 'status 502', 'status 503', 'reset before', 'reset after', 'truncate', 'malformed', 'wrong-shape', 'html', 'rate-limit',
];

/** Client timeout in the matrix, and the injected latency that outlasts it. */
export const matrixTimeoutMs = 60;
export const matrixLatencyMs = 200;

/** The emulator fault for one matrix column, on one method and path. 5xx come after the service acted: the worst case. */
export function faultSpec(fault: MatrixFault, method: string, path: string): FaultSpec {
  const at = { method, path };
  switch (fault) {
    case 'timeout':
      return { ...at, kind: 'latency', latencyMs: matrixLatencyMs };
    case 'status 500':
    case 'status 502':
    case 'status 503':
      return { ...at, kind: 'status', status: Number(fault.slice(7)), beforeHandling: false };
    case 'reset before':
      return { ...at, kind: 'reset', beforeHandling: true };
    case 'reset after':
      return { ...at, kind: 'reset', beforeHandling: false };
    default:
      return { ...at, kind: fault };
  }
}

async function newChangeRequest(client: ServiceClient, scene: Scene): Promise<string> {
  const subject = next('matrix');
  await client.changeRequests.create('acme-demo', { subject, message: 'Fault matrix target.', targetIds: [scene.workspaceId] });
  const listed = await client.changeRequests.list('demo-app', { pageSize: 100 });
  const created = listed.items.find((cr) => cr.attributes.subject === subject);
  if (!created) throw new Error(`The change request "${subject}" was created but is not listed.`);
  return created.id;
}

function phase(scene: Scene, relation: string, read: (c: ServiceClient, id: string) => Promise<unknown>, prefix: string) {
  const id = relatedId(scene.pausedRun, relation)!;
  return { path: `${prefix}${id}`, call: (c: ServiceClient) => read(c, id) };
}

function planJson(scene: Scene, endpoint: string) {
  const id = relatedId(scene.pausedRun, 'plan')!;
  return { path: `/api/v2/plans/${id}/${endpoint}`, call: (c: ServiceClient) => c.planOutput.getPlanJson(id) };
}

function runAction(run: Run, action: string, act: (c: ServiceClient, id: string) => Promise<unknown>) {
  return { path: `/api/v2/runs/${run.id}/actions/${action}`, call: (c: ServiceClient) => act(c, run.id) };
}

/**
 * Every operation the client performs, with the words used to describe it to a user, and what the spec's
 * section 7 says an error status means for it. Keeping the table here (not at each call site) makes the
 * error messages consistent and lets one test check every row of section 7.
 */

export const operationLabels = {
  ping: 'reach the service',
  getAccountDetails: 'read the account of this token',
  getUser: 'read the user',
  getOrganizationSubscription: "read the organization's subscription",
  getSubscription: 'read the subscription',
  createRun: 'create the run',
  getRun: 'read the run',
  listWorkspaceRuns: "list the workspace's runs",
  listOrganizationRuns: "list the organization's runs",
  applyRun: 'apply the run',
  discardRun: 'discard the run',
  cancelRun: 'cancel the run',
  forceCancelRun: 'force-cancel the run',
  forceExecuteRun: 'force-execute the run',
  listChangeRequests: "list the workspace's change requests",
  getChangeRequest: 'read the change request',
  archiveChangeRequest: 'archive the change request',
  createChangeRequest: 'create the change request',
  generateOrganizationToken: 'generate the organization token',
  deleteOrganizationToken: 'delete the organization token',
  getOrganizationToken: 'read the organization token',
  createVariable: 'create the variable',
  listVariables: 'list the variables',
  updateVariable: 'update the variable',
  deleteVariable: 'delete the variable',
  listWorkspaces: 'list the workspaces',
  listOrganizations: 'list your organizations',
  getOrganization: 'read the organization',
  getWorkspace: 'read the workspace',
  createConfigurationVersion: 'create the configuration version',
  uploadConfiguration: 'upload the configuration',
  getConfigurationVersion: 'read the configuration version',
  getPlan: 'read the plan',
  getApply: 'read the apply',
  getCostEstimate: 'read the cost estimate',
  listPolicyChecks: 'list the policy checks',
  readLog: 'read the log',
  readPlanJson: "read the plan's JSON output",
  readRedactedPlanJson: "read the plan's redacted JSON output",
} as const;

export type OperationName = keyof typeof operationLabels;

/** Section 7 of the spec, verbatim in meaning: operation → status → condition. */
const specMeanings: Partial<Record<OperationName, Record<number, string>>> = {
  createRun: {
    404: 'the organization or workspace was not found, or this token may not queue runs there (organization tokens never can)',
    422: 'the request was malformed (missing attributes, wrong types or conflicting options)',
  },
  getRun: { 404: 'the run was not found, or this token may not see it' },
  applyRun: { 409: 'the run is not paused for confirmation' },
  discardRun: { 409: 'the run is not paused for confirmation or priority' },
  cancelRun: {
    409: 'the run is not planning or applying',
    404: 'the run was not found, or this token may not cancel it',
  },
  forceCancelRun: {
    409: 'the run is not planning or applying, was not cancelled normally first, or its cool-off period has not passed',
    404: 'the run was not found, or this token may not force-cancel it (it needs admin access to the workspace)',
  },
  forceExecuteRun: {
    403: 'the run is not pending, its workspace is not locked, or its workspace was not found',
    409: 'the run locking the workspace is not in a discardable state',
    404: 'the run was not found, or this token may not force-execute it',
  },
  generateOrganizationToken: {
    404: 'this token may not manage the organization token (only the owners team, its token and the organization token may)',
  },
  deleteOrganizationToken: {
    404: 'there is no organization token to delete, or this token may not manage it (only the owners team, its token and the organization token may)',
  },
};

/** Run actions are refused to organization tokens with a 404, like anything else the caller may not do. */
const runActions: readonly OperationName[] = ['applyRun', 'discardRun', 'cancelRun', 'forceCancelRun', 'forceExecuteRun'];

function genericMeaning(operation: OperationName | undefined, status: number): string {
  if (status === 400) return 'the service rejected a parameter of the request';
  if (status === 401) return 'the API token is missing, invalid or expired: sign in again';
  if (status === 403) return 'the service refused this action';
  if (status === 404) {
    if (operation && runActions.includes(operation)) {
      return 'the run was not found, or this token may not do this (organization tokens never can)';
    }
    return 'it was not found, or this token may not see or do it';
  }
  if (status === 409) return 'the resource is not in a state that allows this';
  if (status === 415) return 'the service did not accept the request media type';
  if (status === 422) return 'the service found the request invalid';
  if (status === 429) return 'too many requests were sent; the service asks to slow down';
  if (status >= 500) return 'the service had an internal problem; try again later';
  return `the service answered with status ${status}`;
}

/** What `status` means for `operation`: the spec's words where it has a row, else a generic reading of the code. */
export function meaningOf(operation: OperationName | undefined, status: number): string {
  return (operation && specMeanings[operation]?.[status]) || genericMeaning(operation, status);
}

/** Every (operation, status) row of the spec's section 7, for tests and documentation. */
export function specErrorRows(): Array<{ operation: OperationName; status: number; meaning: string }> {
  return Object.entries(specMeanings).flatMap(([operation, byStatus]) =>
    Object.entries(byStatus ?? {}).map(([status, meaning]) => ({
      operation: operation as OperationName,
      status: Number(status),
      meaning,
    })),
  );
}

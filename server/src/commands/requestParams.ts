// Validation of every custom request's params (zod), one schema per method, so a client that sends the wrong shape
// (a number for workspaceId, no runId) gets InvalidParams naming the field, what was wrong and what to send, before
// anything reaches the service. Values are never echoed (a token, a variable's value). Unknown keys are allowed.
import { z } from 'zod';
import { invalidParams } from './errors';

const id = (what: string) =>
  z.string({ error: (issue) => (issue.input === undefined ? `${what} is missing` : `${what} must be a string, not ${typeOf(issue.input)}`) }).trim().min(1, `${what} must not be empty`);
const optionalText = (what: string) => z.string({ error: (issue) => `${what} must be a string, not ${typeOf(issue.input)}` }).optional();
const hostname = { hostname: id('hostname').optional() };
const page = {
  pageNumber: z.number({ error: 'pageNumber must be a number' }).int('pageNumber must be a whole number').positive('pageNumber must be 1 or more').optional(),
  pageSize: z.number({ error: 'pageSize must be a number' }).int('pageSize must be a whole number').min(1, 'pageSize must be 1 to 100').max(100, 'pageSize must be 1 to 100').optional(),
};
const strings = (what: string) => z.array(z.string({ error: `every entry of ${what} must be a string` }), { error: `${what} must be an array of strings` }).optional();
const folder = { folderUri: id('folderUri') };

export const requestParamSchemas = {
  'hcpTerraform/runs': z
    .looseObject({
      ...hostname,
      ...page,
      workspaceId: id('workspaceId').optional(),
      organization: id('organization').optional(),
      workspaceNames: strings('workspaceNames'),
      operations: strings('operations'),
      statuses: strings('statuses'),
      sources: strings('sources'),
      statusGroup: optionalText('statusGroup'),
      timeframe: z.union([z.number(), z.literal('year')], { error: 'timeframe must be a number of days or "year"' }).optional(),
      search: optionalText('search'),
    })
    .refine((p) => p.workspaceId !== undefined || p.organization !== undefined, { message: 'give workspaceId or organization (whose runs to list)' }),
  'hcpTerraform/runDetails': z.looseObject({
    ...hostname,
    runId: id('runId'),
    planLogOffset: z.number({ error: 'planLogOffset must be a number' }).int().nonnegative().optional(),
    applyLogOffset: z.number({ error: 'applyLogOffset must be a number' }).int().nonnegative().optional(),
  }),
  'hcpTerraform/changeRequests': z.looseObject({ ...hostname, ...page, workspaceName: id('workspaceName') }),
  'hcpTerraform/variables': z.looseObject({ ...hostname, workspaceId: id('workspaceId') }),
  'hcpTerraform/subscription': z.looseObject({ ...hostname, organization: id('organization') }),
  'hcpTerraform/validateToken': z.looseObject({ hostname: id('hostname'), token: id('token') }),
  'hcpTerraform/organizations': z.looseObject({ ...hostname }),
  'hcpTerraform/accountIdentity': z.looseObject({ ...hostname }),
  'hcpTerraform/workspaces': z.looseObject({ ...hostname, ...page, organization: id('organization'), search: optionalText('search') }),
  'hcpTerraform/workspace': z.looseObject({ ...hostname, workspaceId: id('workspaceId') }),
  'hcpTerraform/watchWorkspaces': z.looseObject({ ...hostname, workspaceIds: z.array(id('every workspace id'), { error: 'workspaceIds must be an array of workspace ids' }) }),
  'hcpTerraform/resourceAddresses': z.looseObject(folder),
  'hcpTerraform/planOverlay': z.looseObject(folder),
  'hcpTerraform/linkFolderEdit': z.looseObject({ ...folder, ...hostname, organization: id('organization'), workspaceName: id('workspaceName') }),
  'hcpTerraform/planResourceChanges': z.looseObject({ ...hostname, runId: id('runId') }),
  'hcpTerraform/organizationTokenStatus': z.looseObject({ ...hostname, organization: id('organization') }),
  'hcpTerraform/variableDeclarations': z.looseObject(folder),
  // An empty value is a value to check (it is not valid HCL), so not `id`.
  'hcpTerraform/checkRunVariable': z.looseObject({ key: z.string({ error: 'key must be a string' }), value: z.string({ error: 'value must be a string' }), folderUri: id('folderUri').optional() }),
  'hcpTerraform/validateHclValue': z.looseObject({ value: z.string({ error: (issue) => (issue.input === undefined ? 'value is missing' : `value must be a string, not ${typeOf(issue.input)}`) }) }),
};

export type RequestMethod = keyof typeof requestParamSchemas;
export type RequestParams<M extends RequestMethod> = z.output<(typeof requestParamSchemas)[M]>;

/** Methods whose params may be left out entirely (everything in them is optional). */
const paramsOptional = new Set<RequestMethod>(['hcpTerraform/organizations', 'hcpTerraform/accountIdentity']);

/** The params, checked; otherwise an InvalidParams error such as `hcpTerraform/runs: workspaceId must be a string, not a number.` */
export function parseRequestParams<M extends RequestMethod>(method: M, raw: unknown): RequestParams<M> {
  const value = raw === undefined || raw === null ? (paramsOptional.has(method) ? {} : raw) : raw;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidParams(`${method} takes one object as params, not ${typeOf(value)}.`);
  }
  const parsed = requestParamSchemas[method].safeParse(value);
  if (parsed.success) return parsed.data as RequestParams<M>;
  const problems = parsed.error.issues.slice(0, 3).map((issue) => issue.message);
  throw invalidParams(`${method}: ${problems.join('; ')}.`);
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}

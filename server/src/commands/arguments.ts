// Validation of every command's single object argument (zod). A wrong argument gets an InvalidParams error naming
// the field and what to send; values are never echoed (a variable's value may be sensitive).
import { z } from 'zod';
import type { ServerCommandArguments, ServerCommandVerb } from '../protocol';

const id = (what: string) => z.string({ error: `${what} must be a string` }).trim().min(1, `${what} must not be empty`);
const text = z.string().optional();
const flag = z.boolean().optional();
const addresses = z.array(z.string().trim().min(1, 'an address must not be empty')).optional();
const host = { hostname: z.string().trim().min(1).optional() };

const runAction = z.object({ ...host, runId: id('runId'), comment: text });

export const commandArgumentSchemas = {
  queuePlan: z
    .object({
      ...host,
      workspaceId: id('workspaceId'),
      message: text,
      isDestroy: flag,
      refresh: flag,
      refreshOnly: flag,
      replaceAddrs: addresses,
      targetAddrs: addresses,
      variables: z.array(z.object({ key: id('a run variable key'), value: z.string({ error: 'a run variable value must be a string (an HCL literal)' }) })).optional(),
      planOnly: flag,
      savePlan: flag,
      engineVersion: z.string().trim().min(1).optional(),
      allowEmptyApply: flag,
      allowConfigGeneration: flag,
      autoApply: flag,
      debuggingMode: flag,
      configurationVersionId: z.string().trim().min(1).optional(),
      configurationFromRunId: z.string().trim().min(1).optional(),
      configurationFromWorkspaceId: z.string().trim().min(1).optional(),
    })
    .refine((a) => !(a.isDestroy && a.refreshOnly), { message: 'isDestroy and refreshOnly cannot both be true: a destroy plan and a refresh-only plan are different runs' })
    .refine((a) => a.engineVersion === undefined || a.planOnly === true, { message: 'engineVersion is only valid for plan-only runs: also set planOnly to true', path: ['engineVersion'] })
    .refine((a) => [a.configurationVersionId, a.configurationFromRunId, a.configurationFromWorkspaceId].filter(Boolean).length <= 1, {
      message: 'give at most one of configurationVersionId, configurationFromRunId and configurationFromWorkspaceId',
    }),
  planLocalChanges: z.object({ ...host, folderUri: id('folderUri'), workspaceId: id('workspaceId'), message: text }),
  applyRun: runAction,
  discardRun: runAction,
  cancelRun: runAction,
  forceCancelRun: runAction,
  forceExecuteRun: z.object({ ...host, runId: id('runId') }),
  createChangeRequest: z.object({
    ...host,
    organization: id('organization'),
    workspaceId: id('workspaceId'),
    subject: id('subject').optional(),
    message: z.string({ error: 'message must be a string (markdown)' }),
    workspaceIds: z.array(id('workspaceIds[]')).optional(),
  }),
  archiveChangeRequest: z.object({ ...host, changeRequestId: id('changeRequestId') }),
  generateOrganizationToken: z.object({
    ...host,
    organization: id('organization'),
    expiredAt: z.iso.datetime({ offset: true, error: 'expiredAt must be an ISO 8601 date-time such as 2027-01-31T00:00:00Z' }).optional(),
  }),
  deleteOrganizationToken: z.object({ ...host, organization: id('organization') }),
  createVariable: z.object({
    ...host,
    workspaceId: id('workspaceId'),
    key: id('key'),
    category: id('category'),
    value: z.string({ error: 'value must be a string' }).optional(),
    hcl: flag,
    sensitive: flag,
    description: text,
  }),
  updateVariable: z
    .object({
      ...host,
      workspaceId: id('workspaceId'),
      variableId: id('variableId'),
      key: z.string().trim().min(1).optional(),
      value: z.string({ error: 'value must be a string' }).optional(),
      category: z.string().trim().min(1).optional(),
      hcl: flag,
      sensitive: flag,
      description: text,
    })
    .refine((a) => [a.key, a.value, a.category, a.hcl, a.sensitive, a.description].some((v) => v !== undefined), {
      message: 'nothing to change: give at least one of key, value, category, hcl, sensitive, description',
    }),
  deleteVariable: z.object({ ...host, workspaceId: id('workspaceId'), variableId: id('variableId') }),
  showPlanOnCode: z.object({ ...host, runId: id('runId') }),
  showInfo: z.object({}).transform(() => ({}) as Record<string, never>),
} satisfies { [V in ServerCommandVerb]: z.ZodType<unknown> };

export type ParsedArguments<V extends ServerCommandVerb> = z.infer<(typeof commandArgumentSchemas)[V]>;

// Compile-time check: the schemas accept exactly the protocol's argument types.
type Assignable<A, B> = A extends B ? true : false;
export const argumentTypesMatch: { [V in ServerCommandVerb]: Assignable<ParsedArguments<V>, ServerCommandArguments[V]> } = {
  queuePlan: true,
  planLocalChanges: true,
  applyRun: true,
  discardRun: true,
  cancelRun: true,
  forceCancelRun: true,
  forceExecuteRun: true,
  createChangeRequest: true,
  archiveChangeRequest: true,
  generateOrganizationToken: true,
  deleteOrganizationToken: true,
  createVariable: true,
  updateVariable: true,
  deleteVariable: true,
  showPlanOnCode: true,
  showInfo: true,
};

/** A command argument the caller must fix (answered as InvalidParams). */
export class CommandArgumentError extends Error {}

/** Validates `raw` (the command's arguments array); throws a CommandArgumentError whose message says what to fix. */
export function parseCommandArguments<V extends ServerCommandVerb>(verb: V, raw: readonly unknown[] | undefined): ParsedArguments<V> {
  const argument = raw?.[0];
  if (typeof argument !== 'object' || argument === null || Array.isArray(argument)) {
    throw new CommandArgumentError(`hcpTerraform.server.${verb} takes one object argument, e.g. ${exampleOf(verb)}.`);
  }
  const parsed = commandArgumentSchemas[verb].safeParse(argument);
  if (parsed.success) return parsed.data as ParsedArguments<V>;
  const problems = parsed.error.issues.slice(0, 3).map((issue) => {
    const field = issue.path.map(String).join('.');
    return field ? `${field}: ${issue.message}` : issue.message;
  });
  throw new CommandArgumentError(`Invalid arguments for hcpTerraform.server.${verb}: ${problems.join('; ')}.`);
}

function exampleOf(verb: ServerCommandVerb): string {
  switch (verb) {
    case 'queuePlan':
      return '{"workspaceId": "ws-…", "message": "…"}';
    case 'planLocalChanges':
      return '{"folderUri": "file:///…", "workspaceId": "ws-…"}';
    case 'createChangeRequest':
      return '{"organization": "…", "workspaceId": "ws-…", "subject": "…", "message": "…"}';
    case 'archiveChangeRequest':
      return '{"changeRequestId": "wscr-…"}';
    case 'generateOrganizationToken':
    case 'deleteOrganizationToken':
      return '{"organization": "…"}';
    case 'createVariable':
      return '{"workspaceId": "ws-…", "key": "region", "category": "engine", "value": "eu-west-1"}';
    case 'updateVariable':
    case 'deleteVariable':
      return '{"workspaceId": "ws-…", "variableId": "var-…"}';
    default:
      return '{"runId": "run-…"}';
  }
}

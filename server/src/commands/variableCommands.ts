// Workspace variables (the deprecated /vars interface, spec §4.5): create, update and delete. Each re-reads the
// workspace's variables right away so diagnostics follow; a sensitive value is never returned or put in a message.
// A change whose answer was lost is never sent again: the variables are read back (readBackVariables.ts).
import type { Variable } from '../api';
import type { VariableSummary } from '../protocol';
import type { ParsedArguments } from './arguments';
import type { CoreContext, Target } from './context';
import { resolveTarget } from './context';
import { confirmDeleteVariable } from './confirmations';
import { invalidParams, toResponseError } from './errors';
import { parseHclExpression } from '../features/hclValues';
import { readBackCreatedVariable, readBackDeletedVariable, readBackUpdatedVariable } from './readBackVariables';
import { doneDespite, mayHaveSucceeded, warnUser } from './uncertainOutcome';

export async function createVariable(context: CoreContext, args: ParsedArguments<'createVariable'>): Promise<VariableSummary> {
  if (args.value === undefined) {
    throw invalidParams(`createVariable needs the value of "${args.key}": ask the user for it (and whether it is sensitive), then send it as value.`);
  }
  requireValidHcl(context, args.hcl, args.value);
  const target = resolveTarget(context, args);
  const input = {
    workspaceId: args.workspaceId,
    key: args.key,
    value: args.value,
    category: args.category,
    ...(args.hcl !== undefined ? { hcl: args.hcl } : {}),
    ...(args.sensitive !== undefined ? { sensitive: args.sensitive } : {}),
    ...(args.description !== undefined ? { description: args.description } : {}),
  };
  return afterVariableChange(context, target, {
    change: () => target.client.variables.create(input),
    readBack: (error) => readBackCreatedVariable(target, input, error),
    done: `the ${args.category} variable "${args.key}" is on the workspace`,
  });
}

export async function updateVariable(context: CoreContext, args: ParsedArguments<'updateVariable'>): Promise<VariableSummary> {
  const target = resolveTarget(context, args);
  if (args.value !== undefined) requireValidHcl(context, args.hcl, args.value);
  const { hostname: _hostname, workspaceId: _workspaceId, variableId, ...changes } = args;
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  return afterVariableChange(context, target, {
    change: () => target.client.variables.update(variableId, defined),
    readBack: (error) => readBackUpdatedVariable(target, args.workspaceId, variableId, defined, error),
    done: `variable ${variableId} shows the change`,
  });
}

export async function deleteVariable(context: CoreContext, args: ParsedArguments<'deleteVariable'>): Promise<{ deleted: true }> {
  const target = resolveTarget(context, args);
  await confirmDeleteVariable(context, target, args.workspaceId, args.variableId);
  await afterVariableChange(context, target, {
    change: () => target.client.variables.delete(args.variableId),
    readBack: (error) => readBackDeletedVariable(target, args.workspaceId, args.variableId, error),
    done: `variable ${args.variableId} is no longer on the workspace`,
  });
  return { deleted: true };
}

/** Whether a variable's value is one HCL expression, by the same parser the code is read with. */
export function checkHclValue(context: CoreContext, value: string): { valid: true } | { valid: false; message: string } {
  const parser = context.parser();
  if (!parser) throw invalidParams('The Terraform parser is still loading: try again in a moment.');
  if (value.trim() === '') return { valid: false, message: 'An HCL value cannot be empty: write "" for an empty string.' };
  return parseHclExpression(parser, value).ok
    ? { valid: true }
    : { valid: false, message: 'Not a valid HCL expression: strings need quotes ("eu-west-1"), lists brackets ([1, 2]), maps braces ({ a = 1 }).' };
}

/**
 * An HCL value is checked with the server's parser before it is sent (the service would store a broken one and
 * fail the next run). The message names the field and never repeats the value (it may be sensitive). When the
 * update does not say `hcl`, the client (which knows the variable) has checked it.
 */
function requireValidHcl(context: CoreContext, hcl: boolean | undefined, value: string | undefined): void {
  if (hcl !== true || value === undefined) return;
  const checked = checkHclValue(context, value);
  if (!checked.valid) throw invalidParams(`Validation error in value: ${checked.message}`);
}

interface VariableChange<T> {
  change: () => Promise<T>;
  /** After an answer was lost: the state read back, or a ResponseError saying what was found. */
  readBack: (error: unknown) => Promise<T>;
  /** What the read-back found when the change was done, for the warning. */
  done: string;
}

async function afterVariableChange<T extends Variable | void>(context: CoreContext, target: Target, { change, readBack, done }: VariableChange<T>): Promise<T extends Variable ? VariableSummary : void> {
  let result: T;
  try {
    result = await change();
  } catch (error) {
    if (mayHaveSucceeded(error)) {
      result = await readBack(error);
      warnUser(context, doneDespite(error, done));
      return finishVariableChange(context, target, result);
    }
    throw toResponseError(error, (e) =>
      e.status === 404 ? 'The workspace or variable was not found, or this token may not change its variables.' : e.status === 422 ? `Validation error${fieldOf(e.errors[0]?.pointer)}: ${e.detail ?? e.title}.` : undefined,
    );
  }
  return finishVariableChange(context, target, result);
}

async function finishVariableChange<T extends Variable | void>(context: CoreContext, target: Target, result: T): Promise<T extends Variable ? VariableSummary : void> {
  if (target.knowledge) await context.directory.reloadVariables(target.knowledge);
  return (result ? summarizeVariable(result as Variable) : undefined) as T extends Variable ? VariableSummary : void;
}

/** A variable for the client: a sensitive value is never included. */
export function summarizeVariable(variable: Variable): VariableSummary {
  const a = variable.attributes;
  const sensitive = a.sensitive === true;
  const summary: VariableSummary = { id: variable.id, key: a.key, category: a.category, hcl: a.hcl === true, sensitive };
  if (!sensitive && typeof a.value === 'string') summary.value = a.value;
  if (a.description) summary.description = a.description;
  return summary;
}

/** `/data/attributes/key` → " in key": the field a validation error is about, in the user's words. */
function fieldOf(pointer: string | undefined): string {
  const field = pointer?.split('/').filter(Boolean).pop();
  return field && field !== 'data' && field !== 'attributes' ? ` in ${field}` : '';
}

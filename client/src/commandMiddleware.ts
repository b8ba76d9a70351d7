import * as vscode from 'vscode';
import type { Middleware } from 'vscode-languageclient/node';
import type { CreateChangeRequestArguments, CreateVariableArguments, DeleteVariableArguments, PlanLocalChangesArguments, QueuePlanArguments, RunActionArguments } from '../../server/src/protocol';
import { serverCommand } from '../../server/src/protocol';
import type { ClientDeps } from './clientDeps';
import { log } from './log';
import { runActionOfServerCommand } from './runs/actions/runActionDefinitions';
import { actOnRunOfServerCommand, queueRunOfServerCommand } from './runs/actions/serverRunCommands';
import { confirmDeleteOfServerCommand } from './variables/deleteVariableConfirmation';

type ExecuteCommand = NonNullable<Middleware['executeCommand']>;

const queuingCommands = new Set([serverCommand('queuePlan'), serverCommand('planLocalChanges')]);

/**
 * Runs the server's commands (from code actions, code lenses or the palette) the way a VS Code user expects:
 * a run action asks the Runs view's own modal and comment first (a lens's Apply must not apply at once), a queued
 * run is announced and followed like one queued from the view, what a quick fix could not know is asked for first
 * (a workspace variable's value, masked when sensitive), and a failure is shown as the server's actionable message
 * rather than only logged.
 */
export function serverCommandMiddleware(deps: ClientDeps): ExecuteCommand {
  return async (command, args, next) => {
    const [first] = args;
    const action = runActionOfServerCommand(command);
    if (action && hasRunId(first)) return actOnRunOfServerCommand(deps, action, first);
    if (command === serverCommand('deleteVariable') && hasVariableId(first)) {
      // A quick fix's Delete asks the Variables view's own modal: the server leaves confirming to this client.
      if (!(await confirmDeleteOfServerCommand(deps, first))) return undefined;
    }
    const completed = await completeArguments(command, args);
    if (completed === undefined) return undefined; // the user cancelled
    try {
      if (queuingCommands.has(command) && hasWorkspaceId(first)) return await queueRunOfServerCommand(deps, command, first, next);
      return await next(command, completed);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`${command} failed: ${message}`);
      void vscode.window.showErrorMessage(`HCP Terraform: ${message}`, 'Show Output').then((choice) => choice && log.show());
      return undefined;
    }
  };
}

function hasRunId(value: unknown): value is RunActionArguments {
  return typeof value === 'object' && value !== null && typeof (value as { runId?: unknown }).runId === 'string';
}

function hasVariableId(value: unknown): value is DeleteVariableArguments {
  return typeof value === 'object' && value !== null && typeof (value as { variableId?: unknown }).variableId === 'string' && typeof (value as { workspaceId?: unknown }).workspaceId === 'string';
}

function hasWorkspaceId(value: unknown): value is QueuePlanArguments | PlanLocalChangesArguments {
  return typeof value === 'object' && value !== null && typeof (value as { workspaceId?: unknown }).workspaceId === 'string';
}
async function completeArguments(command: string, args: unknown[]): Promise<unknown[] | undefined> {
  if (command === 'hcpTerraform.server.createChangeRequest') return completeChangeRequest(args);
  if (command !== 'hcpTerraform.server.createVariable') return args;
  const [first] = args;
  if (typeof first !== 'object' || first === null) return args;
  const variable = first as CreateVariableArguments;
  if (variable.value !== undefined) return args;
  const value = await vscode.window.showInputBox({
    title: `Set workspace variable "${variable.key}"`,
    prompt: variable.hcl
      ? 'Value, as an HCL expression (e.g. ["a", "b"] or { port = 80 })'
      : `Value of the ${variable.category === 'env' ? 'environment' : 'Terraform'} variable`,
    password: variable.sensitive === true,
    ignoreFocusOut: true,
  });
  return value === undefined ? undefined : [{ ...variable, value }, ...args.slice(1)];
}

/** A change request opened from a selection comes without a subject (the selected text is never sent): ask for it. */
async function completeChangeRequest(args: unknown[]): Promise<unknown[] | undefined> {
  const [first] = args;
  if (typeof first !== 'object' || first === null) return args;
  const request = first as CreateChangeRequestArguments;
  if (request.subject !== undefined) return args;
  const subject = await vscode.window.showInputBox({
    title: 'Open a change request',
    prompt: `Subject of the change request (${request.message.replace(/`/g, '')})`,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() ? undefined : 'Enter a subject'),
  });
  return subject === undefined ? undefined : [{ ...request, subject: subject.trim() }, ...args.slice(1)];
}

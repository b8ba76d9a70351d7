// workspace/executeCommand: one handler per `hcpTerraform.server.<verb>`, each validating its single object
// argument first. Every command is listed in executeCommandProvider (serverCommandNames).
import type { Connection } from 'vscode-languageserver';
import { ResponseError, ErrorCodes } from 'vscode-languageserver';
import { serverCommand, serverCommandVerbs } from '../protocol';
import type { ServerCommandVerb } from '../protocol';
import { showPlanOnCode } from '../plans/planRequests';
import { planLocalChanges } from '../upload/planLocalChanges';
import { CommandArgumentError, parseCommandArguments } from './arguments';
import { runningCommand } from './uncertainOutcome';
import { NotConfirmed } from './confirmations';
import type { CoreContext } from './context';
import { invalidParams, toResponseError } from './errors';
import { queuePlan, runAction } from './runCommands';
import { createVariable, deleteVariable, updateVariable } from './variableCommands';
import { archiveChangeRequest, createChangeRequest, deleteOrganizationToken, generateOrganizationToken } from './workspaceCommands';

export const serverCommandNames: string[] = serverCommandVerbs.map(serverCommand);

type Handler = (context: CoreContext, raw: readonly unknown[] | undefined, workDoneToken: string | number | undefined) => Promise<unknown>;

const handlers: { [V in ServerCommandVerb]: Handler } = {
  queuePlan: (c, raw) => queuePlan(c, parseCommandArguments('queuePlan', raw)),
  planLocalChanges: (c, raw, token) => planLocalChanges(c, parseCommandArguments('planLocalChanges', raw), token),
  applyRun: (c, raw) => runAction(c, 'applyRun', parseCommandArguments('applyRun', raw)),
  discardRun: (c, raw) => runAction(c, 'discardRun', parseCommandArguments('discardRun', raw)),
  cancelRun: (c, raw) => runAction(c, 'cancelRun', parseCommandArguments('cancelRun', raw)),
  forceCancelRun: (c, raw) => runAction(c, 'forceCancelRun', parseCommandArguments('forceCancelRun', raw)),
  forceExecuteRun: (c, raw) => runAction(c, 'forceExecuteRun', parseCommandArguments('forceExecuteRun', raw)),
  createChangeRequest: (c, raw) => createChangeRequest(c, parseCommandArguments('createChangeRequest', raw)),
  archiveChangeRequest: (c, raw) => archiveChangeRequest(c, parseCommandArguments('archiveChangeRequest', raw)),
  generateOrganizationToken: (c, raw) => generateOrganizationToken(c, parseCommandArguments('generateOrganizationToken', raw)),
  deleteOrganizationToken: (c, raw) => deleteOrganizationToken(c, parseCommandArguments('deleteOrganizationToken', raw)),
  createVariable: (c, raw) => createVariable(c, parseCommandArguments('createVariable', raw)),
  updateVariable: (c, raw) => updateVariable(c, parseCommandArguments('updateVariable', raw)),
  deleteVariable: (c, raw) => deleteVariable(c, parseCommandArguments('deleteVariable', raw)),
  showPlanOnCode: (c, raw) => showPlanOnCode(c, parseCommandArguments('showPlanOnCode', raw)),
  // A text-only lens was clicked: nothing to do (it only shows information).
  showInfo: async () => null,
};

/** `tellOutcome` hears each command that succeeded, with its result (the server tells it where the client does not). */
export function registerCommands(connection: Connection, context: CoreContext, tellOutcome?: (verb: ServerCommandVerb, result: unknown) => void): void {
  connection.onExecuteCommand(async (params) => {
    const verb = params.command.startsWith('hcpTerraform.server.') ? (params.command.slice('hcpTerraform.server.'.length) as ServerCommandVerb) : undefined;
    const handler = verb && Object.hasOwn(handlers, verb) ? handlers[verb] : undefined;
    if (!handler || verb === undefined) {
      throw new ResponseError(ErrorCodes.MethodNotFound, `Unknown command ${params.command}; the server offers: ${serverCommandNames.join(', ')}.`);
    }
    let result: unknown;
    const command = { warned: false };
    try {
      result = await runningCommand.run(command, () => handler(context, params.arguments, params.workDoneToken));
    } catch (error) {
      if (error instanceof NotConfirmed) {
        context.log(`${params.command}: not confirmed, nothing was sent.`);
        return null;
      }
      if (error instanceof CommandArgumentError) throw invalidParams(error.message);
      const response = toResponseError(error);
      context.log(`${params.command} failed: ${response.message}`);
      throw response;
    }
    // Outside the try: the command succeeded whatever happens in telling it (a write reported as failed invites a retry).
    try {
      // A write whose answer was lost and was read back as done has said so already (uncertainOutcome.ts).
      if (!command.warned) tellOutcome?.(verb, result);
    } catch (error) {
      context.log(`${params.command} succeeded, but telling so failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return result;
  });
}

// The LSP commands that code actions and code lenses carry. The core executes them (workspace/executeCommand);
// features only say which one, with the single object argument the protocol declares for it.
import type { Command } from 'vscode-languageserver';
import { serverCommand as serverCommandName } from '../protocol';
import type { ServerCommandArguments, ServerCommandVerb } from '../protocol';

/** The commands features offer (the organization-token and promotion commands are the views' business). */
export type FeatureCommandVerb = Extract<
  ServerCommandVerb,
  | 'queuePlan'
  | 'planLocalChanges'
  | 'applyRun'
  | 'discardRun'
  | 'cancelRun'
  | 'forceCancelRun'
  | 'createChangeRequest'
  | 'createVariable'
  | 'updateVariable'
  | 'deleteVariable'
  | 'showInfo'
>;

/** initializationOptions.prompts: which missing command arguments the client asks its user for. */
export interface ClientPrompts {
  variableValue?: boolean;
  changeRequestSubject?: boolean;
}

/** A text-only code lens's command: its title is the information, and running it does nothing. */
export function infoCommand(title: string): Command {
  return serverCommand(title, 'showInfo', {});
}

export function serverCommand<V extends FeatureCommandVerb>(title: string, verb: V, argument: ServerCommandArguments[V]): Command {
  return { title, command: serverCommandName(verb), arguments: [argument] };
}

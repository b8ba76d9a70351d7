// The LSP commands that code actions and code lenses carry. The core executes them (workspace/executeCommand);
// features only say which one, with the single object argument declared in host.ts (FeatureCommandArguments).
import type { Command } from 'vscode-languageserver';
import { serverCommand as serverCommandName } from '../protocol';
import type { ServerCommandArguments } from '../protocol';
import type { FeatureCommandArguments } from './host';

export type FeatureCommandVerb = keyof FeatureCommandArguments;

/**
 * Compile-time proof that what features send is what the core's protocol accepts: if protocol.ts changes an
 * argument, this stops type-checking instead of a command failing at run time.
 */
type Accepts<V extends FeatureCommandVerb> = FeatureCommandArguments[V] extends ServerCommandArguments[V] ? true : never;
const argumentsMatchProtocol: { [V in FeatureCommandVerb]: Accepts<V> } = {
  queuePlan: true,
  planLocalChanges: true,
  applyRun: true,
  discardRun: true,
  cancelRun: true,
  forceCancelRun: true,
  createChangeRequest: true,
  createVariable: true,
  updateVariable: true,
  deleteVariable: true,
};
void argumentsMatchProtocol;

export function serverCommand<V extends FeatureCommandVerb>(title: string, verb: V, argument: FeatureCommandArguments[V]): Command {
  return { title, command: serverCommandName(verb), arguments: [argument] };
}

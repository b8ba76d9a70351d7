// The LSP commands that code actions and code lenses carry. The core executes them (workspace/executeCommand);
// features only say which one, with the single object argument declared in host.ts (FeatureCommandArguments).
import type { Command } from 'vscode-languageserver';
import type { FeatureCommandArguments } from './host';

export type FeatureCommandVerb = keyof FeatureCommandArguments;

export function serverCommandName(verb: FeatureCommandVerb): string {
  return `hcpTerraform.server.${verb}`;
}

export function serverCommand<V extends FeatureCommandVerb>(title: string, verb: V, argument: FeatureCommandArguments[V]): Command {
  return { title, command: serverCommandName(verb), arguments: [argument] };
}

import * as vscode from 'vscode';

export type CommandHandler = (...args: unknown[]) => unknown;

/** Registers a table of commands in one loop; every registration is disposed with the extension. */
export function registerCommands(context: vscode.ExtensionContext, commands: Record<string, CommandHandler>): void {
  for (const [name, handler] of Object.entries(commands)) {
    context.subscriptions.push(vscode.commands.registerCommand(name, handler));
  }
}

import * as vscode from 'vscode';

/**
 * Every question the client's commands ask the user goes through here, so the end-to-end tests can answer them
 * (they swap these functions through the extension's API) while the code under test stays the real one.
 */
export const prompts = {
  pick<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions & { canPickMany?: false }): Thenable<T | undefined> {
    return vscode.window.showQuickPick(items, options);
  },
  pickMany<T extends vscode.QuickPickItem>(items: readonly T[] | Thenable<readonly T[]>, options: vscode.QuickPickOptions): Thenable<readonly T[] | undefined> {
    return vscode.window.showQuickPick(items, { ...options, canPickMany: true });
  },
  input(options: vscode.InputBoxOptions): Thenable<string | undefined> {
    return vscode.window.showInputBox(options);
  },
  /** A modal question; resolves with the chosen button's title, or undefined when dismissed. */
  modal(message: string, detail: string, ...buttons: string[]): Thenable<string | undefined> {
    return vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons);
  },
  info(message: string, ...buttons: string[]): Thenable<string | undefined> {
    return vscode.window.showInformationMessage(message, ...buttons);
  },
  warn(message: string, ...buttons: string[]): Thenable<string | undefined> {
    return vscode.window.showWarningMessage(message, ...buttons);
  },
  error(message: string, ...buttons: string[]): Thenable<string | undefined> {
    return vscode.window.showErrorMessage(message, ...buttons);
  },
};

export type Prompts = typeof prompts;

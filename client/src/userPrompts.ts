import * as vscode from 'vscode';

/**
 * Every question and message of sign-in, run notifications and the run commands goes through this one object, so the end-to-end tests
 * can answer a quick pick, type a token or press a notification's button (VS Code has no API to do that from a test):
 * they swap a member and put it back. Production code never replaces anything here.
 */
export interface UserPrompts {
  quickPick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Thenable<T | undefined>;
  quickPickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Thenable<readonly T[] | undefined>;
  /** A modal question; the chosen button's title, or undefined when dismissed. */
  modal(message: string, detail: string, ...buttons: string[]): Thenable<string | undefined>;
  inputBox(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  information(message: string, ...buttons: string[]): Thenable<string | undefined>;
  warning(message: string, ...buttons: string[]): Thenable<string | undefined>;
  error(message: string, ...buttons: string[]): Thenable<string | undefined>;
}

export const prompts: UserPrompts = {
  quickPick: (items, options) => vscode.window.showQuickPick(items, options),
  quickPickMany: (items, options) => vscode.window.showQuickPick(items, { ...options, canPickMany: true }),
  modal: (message, detail, ...buttons) => vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons),
  inputBox: (options) => vscode.window.showInputBox(options),
  information: (message, ...buttons) => vscode.window.showInformationMessage(message, ...buttons),
  warning: (message, ...buttons) => vscode.window.showWarningMessage(message, ...buttons),
  error: (message, ...buttons) => vscode.window.showErrorMessage(message, ...buttons),
};

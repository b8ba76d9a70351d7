import * as vscode from 'vscode';

/**
 * Every question and message of sign-in, run notifications and the run commands goes through this one object, so the end-to-end tests
 * can answer a quick pick, type a token or press a notification's button (VS Code has no API to do that from a test):
 * they swap a member and put it back. Production code never replaces anything here.
 */
/** What a step of a multi-step flow answers when the user presses its Back button. */
export const back = Symbol('back');
export type Back = typeof back;

/** A step of a multi-step flow: "2/7" in the title bar, and a Back button from the second step on. */
export interface StepOptions {
  title: string;
  step: number;
  totalSteps: number;
  placeholder?: string;
}

/** A step's check of its input: an error (a string) blocks Enter; a warning or information is shown and lets it through. */
export type InputVerdict = string | vscode.InputBoxValidationMessage | undefined;

export interface StepInputOptions extends StepOptions {
  value?: string;
  prompt?: string;
  validate?: (value: string) => InputVerdict | Thenable<InputVerdict>;
}

export interface UserPrompts {
  stepPick<T extends vscode.QuickPickItem>(items: readonly T[], options: StepOptions): Thenable<T | Back | undefined>;
  /** Several items; `items[i].picked` preselects. */
  stepPickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: StepOptions): Thenable<readonly T[] | Back | undefined>;
  /** `validate` may answer later (a server check); only an error (a plain string) keeps the input open. */
  stepInput(options: StepInputOptions): Thenable<string | Back | undefined>;
  quickPick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Thenable<T | undefined>;
  quickPickMany<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Thenable<readonly T[] | undefined>;
  /** A modal question; the chosen button's title, or undefined when dismissed. */
  modal(message: string, detail: string, ...buttons: string[]): Thenable<string | undefined>;
  inputBox(options: vscode.InputBoxOptions): Thenable<string | undefined>;
  /**
   * Shows a secret once, in a modal (never a notification: those are kept in the notification centre), with buttons
   * such as Copy; the chosen button's title. The secret is not logged or kept by this call.
   */
  showSecretOnce(message: string, secret: string, ...buttons: string[]): Thenable<string | undefined>;
  information(message: string, ...buttons: string[]): Thenable<string | undefined>;
  warning(message: string, ...buttons: string[]): Thenable<string | undefined>;
  error(message: string, ...buttons: string[]): Thenable<string | undefined>;
}

export const prompts: UserPrompts = {
  stepPick: (items, options) => pickStep(items, options, false).then((result) => (Array.isArray(result) ? result[0] : result)),
  stepPickMany: (items, options) => pickStep(items, options, true),
  stepInput: (options) => inputStep(options),
  quickPick: (items, options) => vscode.window.showQuickPick(items, options),
  quickPickMany: (items, options) => vscode.window.showQuickPick(items, { ...options, canPickMany: true }),
  modal: (message, detail, ...buttons) => vscode.window.showWarningMessage(message, { modal: true, detail }, ...buttons),
  inputBox: (options) => vscode.window.showInputBox(options),
  showSecretOnce: (message, secret, ...buttons) => vscode.window.showInformationMessage(message, { modal: true, detail: secret }, ...buttons),
  information: (message, ...buttons) => vscode.window.showInformationMessage(message, ...buttons),
  warning: (message, ...buttons) => vscode.window.showWarningMessage(message, ...buttons),
  error: (message, ...buttons) => vscode.window.showErrorMessage(message, ...buttons),
};

function pickStep<T extends vscode.QuickPickItem>(items: readonly T[], options: StepOptions, many: boolean): Promise<readonly T[] | Back | undefined> {
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<T>();
    Object.assign(pick, { title: options.title, step: options.step, totalSteps: options.totalSteps, placeholder: options.placeholder, canSelectMany: many, ignoreFocusOut: true, matchOnDescription: true, matchOnDetail: true });
    pick.items = items;
    if (many) pick.selectedItems = items.filter((item) => item.picked);
    pick.buttons = options.step > 1 ? [vscode.QuickInputButtons.Back] : [];
    let settled = false;
    const finish = (value: readonly T[] | Back | undefined) => {
      if (settled) return;
      settled = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidTriggerButton((button) => button === vscode.QuickInputButtons.Back && finish(back));
    pick.onDidAccept(() => finish(many ? [...pick.selectedItems] : pick.activeItems.slice(0, 1)));
    pick.onDidHide(() => finish(undefined));
    pick.show();
  });
}

function inputStep(options: StepInputOptions): Promise<string | Back | undefined> {
  return new Promise((resolve) => {
    const input = vscode.window.createInputBox();
    Object.assign(input, { title: options.title, step: options.step, totalSteps: options.totalSteps, placeholder: options.placeholder, value: options.value ?? '', prompt: options.prompt, ignoreFocusOut: true });
    input.buttons = options.step > 1 ? [vscode.QuickInputButtons.Back] : [];
    let settled = false;
    const finish = (value: string | Back | undefined) => {
      if (settled) return;
      settled = true;
      resolve(value);
      input.dispose();
    };
    // A check that answers later is shown only if the text is still the one it checked (typing goes on meanwhile).
    const check = async (value: string): Promise<InputVerdict> => {
      input.busy = true;
      try {
        return await options.validate?.(value);
      } catch {
        return undefined; // the service checks again when the step's answer is sent
      } finally {
        if (input.value === value) input.busy = false;
      }
    };
    input.onDidChangeValue(async (value) => {
      const verdict = await check(value);
      if (!settled && input.value === value) input.validationMessage = verdict;
    });
    input.onDidTriggerButton((button) => button === vscode.QuickInputButtons.Back && finish(back));
    input.onDidAccept(async () => {
      const value = input.value;
      const verdict = await check(value);
      if (settled || input.value !== value) return;
      input.validationMessage = verdict;
      if (isBlocking(verdict)) return; // stays open until the value is valid
      finish(value);
    });
    input.onDidHide(() => finish(undefined));
    input.show();
  });
}

function isBlocking(verdict: InputVerdict): boolean {
  if (verdict === undefined || verdict === '') return false;
  return typeof verdict === 'string' || verdict.severity === vscode.InputBoxValidationSeverity.Error;
}

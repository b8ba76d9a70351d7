// A write that got no clear answer (mayHaveSucceeded: a reset or 5xx after the service acted, a timeout, a cut
// 201) is never sent again: the service is asked what is there now, and the user is told that, so nobody queues a
// second run, or creates, archives or deletes twice, because an answer was lost. These are the pieces every
// read-back shares (the wording, the warning); the read-backs themselves are in readBack*.ts.
import { AsyncLocalStorage } from 'node:async_hooks';
import { LSPErrorCodes, MessageType, ResponseError } from 'vscode-languageserver';
import { isApiError } from '../api';
import { showNotice } from '../connection/notices';
import type { CoreContext } from './context';

/** Whether an error is a write the service may have done (the API client marks those). */
export function mayHaveSucceeded(error: unknown): boolean {
  return isApiError(error) && error.mayHaveSucceeded;
}

/** What the user reads first: the API client's message without its generic advice (replaced by what was found). */
export function lostAnswerCause(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/ The service may have done it anyway .*$/s, '');
}

/** The command's failure: what was found (not done, or could not be checked). */
export function outcomeFailure(message: string): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestFailed, message);
}

/** A warning for the user: the write was done although its answer was lost. */
export function doneDespite(error: unknown, what: string): string {
  return `${lostAnswerCause(error)} But ${what}: it was done, and not sent twice.`;
}

/** Why a read-back failed, to quote inside a sentence. */
export function describeReadError(error: unknown): string {
  const message = isApiError(error) || error instanceof Error ? error.message : String(error);
  return message.replace(/\.$/, '');
}

/** Logs the warning and shows it: a notification, not showWarningMessage's request (nothing to answer; every LSP client shows it). */
export function warnUser(context: CoreContext, message: string): void {
  context.log(message);
  showNotice(context.connection, MessageType.Warning, message);
  const command = runningCommand.getStore();
  if (command) command.warned = true;
}

/**
 * The command running in this async context, and whether warnUser told the user what it did: that warning already
 * says the write was done, so the outcome sentence after it would say it twice (registerCommands).
 */
export const runningCommand = new AsyncLocalStorage<{ warned: boolean }>();

// Maps the API client's typed errors to LSP ResponseErrors whose message says what happened and what to do.
// The API client's messages never carry the token or a sent secret; nothing here adds one.
import { ErrorCodes, LSPErrorCodes, ResponseError } from 'vscode-languageserver';
import { isApiError, RateLimitedError, ServiceError } from '../api';

/** A problem with the command's input or the server's state that the user can fix (InvalidParams). */
export function invalidParams(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, message);
}

/** The service could not do it for a reason the message names (RequestFailed). */
export function requestFailed(message: string): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestFailed, message);
}

/** Turns anything thrown by a command into a ResponseError; `describe` can reword known service answers. */
export function toResponseError(error: unknown, reword?: (error: ServiceError) => string | undefined): ResponseError<void> {
  if (error instanceof ResponseError) return error;
  if (error instanceof ServiceError) {
    const message = reword?.(error) ?? error.message;
    return new ResponseError(LSPErrorCodes.RequestFailed, message, undefined);
  }
  if (error instanceof RateLimitedError) return new ResponseError(LSPErrorCodes.RequestFailed, error.message);
  if (isApiError(error)) {
    if (error.kind === 'cancelled') return new ResponseError(LSPErrorCodes.RequestCancelled, error.message);
    return new ResponseError(LSPErrorCodes.RequestFailed, error.message);
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ResponseError(ErrorCodes.InternalError, `The language server failed: ${message}`);
}

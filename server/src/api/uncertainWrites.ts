/**
 * A write that got no clear answer may still have been done by the service: a connection reset or a 5xx after the
 * service acted, a timeout, a 2xx whose body was cut or unreadable. Reporting it as a plain failure invites the user
 * to do it again (a second run, a second apply), so such errors are marked and say so; the caller reads the state
 * back instead of resending (commands/uncertainOutcome.ts).
 */
import type { ApiError } from './errors';
import { operationLabels } from './operations';
import type { OperationName } from './operations';

/** Whether the service may have handled the write that failed with `error`. A 4xx or a 429 proves it did not. */
export function writeMayHaveSucceeded(error: ApiError): boolean {
  switch (error.kind) {
    case 'timeout':
      return true;
    case 'network':
      return 'requestMayHaveBeenSent' in error && error.requestMayHaveBeenSent === true;
    case 'service':
      return 'status' in error && typeof error.status === 'number' && error.status >= 500;
    case 'malformed':
      // A 2xx whose body could not be read: the service did it. Status 0: a link to another host, never sent.
      return 'status' in error && typeof error.status === 'number' && error.status >= 200 && error.status < 300;
    default:
      return false;
  }
}

/** Marks `error` when the write may have succeeded and adds what to do to its message; returns it. */
export function markUncertainWrite(error: ApiError, operation: OperationName): ApiError {
  if (error.mayHaveSucceeded || !writeMayHaveSucceeded(error)) return error;
  error.mayHaveSucceeded = true;
  error.message = `${error.message} The service may have done it anyway (${operationLabels[operation]}): check before trying again; the editor did not send it twice.`;
  return error;
}

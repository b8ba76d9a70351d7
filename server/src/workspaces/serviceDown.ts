// Whether a failed read says the service itself is not answering (as opposed to something about one workspace):
// no connection, no answer in time, or a 5xx (a gateway's 502 page, an outage). Every workspace on the host then
// fails the same way, so the user is told once for the host, not once per linked folder.
import { isApiError, ServiceError } from '../api';

export function isServiceDown(error: unknown): boolean {
  if (!isApiError(error)) return false;
  if (error.kind === 'network' || error.kind === 'timeout') return true;
  return error instanceof ServiceError && error.status >= 500;
}

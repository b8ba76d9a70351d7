import { errorMessage } from '../serverAccess';

/**
 * The server's reason for a failure, without its own "Could not …:" opening, so the view or message that tells it can
 * say what could not be done in its own words, once. The reason already names the cause (permission, a feature
 * missing from the plan, a validation error with its field, the connection) and never a secret.
 */
export function failureReason(error: unknown): string {
  return errorMessage(error).replace(/^HCP Terraform:\s*/, '').replace(/^Could not [^:]{1,80}: /, '');
}

/** A failed action told in the user's terms: what could not be done, then the server's reason. */
export function failureMessage(action: string, error: unknown): string {
  return `HCP Terraform: could not ${action}: ${failureReason(error)}`;
}

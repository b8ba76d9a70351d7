import { errorMessage } from '../serverAccess';

/**
 * A failed action told in the user's terms: what could not be done, then the server's reason, which already names
 * the cause (permission, a feature missing from the plan, a validation error with its field) and never a secret.
 */
export function failureMessage(action: string, error: unknown): string {
  // The server's own message may start with its "Could not …:" too: say it once.
  const reason = errorMessage(error).replace(/^HCP Terraform:\s*/, '').replace(/^Could not [^:]{1,80}: /, '');
  return `HCP Terraform: could not ${action}: ${reason}`;
}

import { errorMessage } from '../serverAccess';

/**
 * A failed action told in the user's terms: what could not be done, then the server's reason, which already names
 * the cause (permission, a feature missing from the plan, a validation error with its field) and never a secret.
 */
export function failureMessage(action: string, error: unknown): string {
  const reason = errorMessage(error).replace(/^HCP Terraform:\s*/, '');
  return `HCP Terraform: could not ${action}: ${reason}`;
}

// Pure (no vscode import) so it is unit-tested with node's runner.

/**
 * JSON members whose values are secret or may be: tokens (initialize, hcpTerraform/setToken, the generated
 * organization token) and variable values (createVariable/updateVariable arguments and results, run variables).
 * A trace shows that they were sent, never what they were.
 */
const secretMembers = /("(?:token|value|secret|password)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;
const bearer = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;

/** The text of a JSON-RPC trace with every secret replaced by [redacted]; `knownSecrets` are replaced anywhere. */
export function redactTrace(text: string, knownSecrets: Iterable<string> = []): string {
  let redacted = text.replace(secretMembers, '$1"[redacted]"').replace(bearer, '$1[redacted]');
  for (const secret of knownSecrets) {
    if (secret.length >= 8) redacted = redacted.split(secret).join('[redacted]');
  }
  return redacted;
}

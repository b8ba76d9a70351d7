// Pure (no vscode import) so it is unit-tested with node's runner.

/**
 * JSON members whose values are secret or may be: tokens (initialize, hcpTerraform/setToken, the generated
 * organization token) and variable values (createVariable/updateVariable arguments and results, run variables).
 * A trace shows that they were sent, never what they were.
 */
const secretMembers = /("(?:token|value|secret|password)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;
const bearer = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/g;

/**
 * JSON members that carry a document's contents (didOpen / didChange / didSave `text`, a workspace edit's
 * `newText`): a .tfvars file holds sensitive values, so the trace shows the length instead (ranges stay as sent).
 */
const documentTextMembers = /("(?:text|newText)"\s*:\s*)"((?:[^"\\]|\\.)*)"/g;

function lengthOf(jsonString: string): number {
  try {
    return (JSON.parse(`"${jsonString}"`) as string).length;
  } catch {
    return jsonString.length;
  }
}

/**
 * The text of a JSON-RPC trace with every secret replaced by [redacted] and document contents by their length;
 * `knownSecrets` are replaced anywhere.
 */
export function redactTrace(text: string, knownSecrets: Iterable<string> = []): string {
  let redacted = text
    .replace(secretMembers, '$1"[redacted]"')
    .replace(documentTextMembers, (_match, member: string, value: string) => `${member}"[${lengthOf(value)} characters]"`)
    .replace(bearer, '$1[redacted]');
  for (const secret of knownSecrets) {
    if (secret.length >= 8) redacted = redacted.split(secret).join('[redacted]');
  }
  return redacted;
}

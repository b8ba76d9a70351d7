// The text of a new `variable` block, as quick fixes and completion insert it.
export function variableBlockText(name: string, type: string | undefined, description?: string): string {
  const lines = [`variable "${name}" {`];
  if (type) lines.push(`  type = ${type}`);
  if (description) lines.push(`  description = ${hclString(description)}`);
  lines.push('}');
  return lines.length === 2 ? `variable "${name}" {}` : lines.join('\n');
}

/** A quoted HCL string: JSON escapes, plus `${` / `%{` doubled so they stay literal text instead of templates. */
export function hclString(text: string): string {
  return JSON.stringify(text).replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');
}

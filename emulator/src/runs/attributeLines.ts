// A change's attributes as Terraform's plain-text plan shows them (`+ input = "hello"`, `~ size = 1 -> 2`,
// `id = (known after apply)`), for workspaces whose logs are plain text. Only changes that carry their attributes
// (plans that followed the configuration) are drawn this way.
import type { PlannedChange } from './model';

export function attributeLines(change: PlannedChange): string[] {
  const before = change.before ?? {};
  const after = change.after ?? {};
  const unknown = new Set(change.afterUnknown ?? []);
  const sensitive = new Set(change.sensitive ?? []);
  const shown = (name: string, value: unknown) => (sensitive.has(name) ? '(sensitive value)' : format(value));
  const names = [...new Set([...Object.keys(before), ...Object.keys(after), ...unknown])].sort();
  const width = Math.max(0, ...names.map((name) => name.length));
  const pad = (name: string) => name.padEnd(width);
  const lines: string[] = [];
  let unchanged = 0;
  for (const name of names) {
    const had = name in before;
    const has = name in after || unknown.has(name);
    const next = unknown.has(name) ? '(known after apply)' : shown(name, after[name]);
    if (change.action === 'create') lines.push(`      + ${pad(name)} = ${next}`);
    else if (change.action === 'delete') lines.push(`      - ${pad(name)} = ${shown(name, before[name])} -> null`);
    else if (!had) lines.push(`      + ${pad(name)} = ${next}`);
    else if (!has) lines.push(`      - ${pad(name)} = ${shown(name, before[name])} -> null`);
    else if (unknown.has(name) || JSON.stringify(before[name]) !== JSON.stringify(after[name])) lines.push(`      ~ ${pad(name)} = ${shown(name, before[name])} -> ${next}`);
    else if (name === 'id') lines.push(`        ${pad(name)} = ${shown(name, before[name])}`);
    else unchanged += 1;
  }
  if (unchanged > 0) lines.push(`        # (${unchanged} unchanged attribute${unchanged === 1 ? '' : 's'} hidden)`);
  return lines;
}

function format(value: unknown): string {
  return value === null || value === undefined ? 'null' : JSON.stringify(value);
}

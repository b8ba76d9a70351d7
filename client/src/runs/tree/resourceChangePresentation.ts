// How a planned resource change reads in the Runs view: its description and a tooltip listing what changes. No
// `vscode` import, so it is unit-tested with node:test. Sensitive values are never shown (the server leaves them out
// too; this is the second lock), and values known only after apply say so.
import type { PlannedChange } from '../model';
import { actionDescription, actionLook } from '../../planOverlay/verdictLook';
import { escapeMarkdown } from './runPresentation';

/** Changes first by weight (replace, delete, create, update, read, no-op), then by address, as a reviewer reads them. */
const weight: Record<string, number> = { replace: 0, delete: 1, create: 2, update: 3, read: 4, 'no-op': 5 };

export function sortedChanges<T extends Pick<PlannedChange, 'action' | 'address'>>(changes: readonly T[]): T[] {
  return [...changes].sort((a, b) => (weight[a.action] ?? 9) - (weight[b.action] ?? 9) || a.address.localeCompare(b.address));
}

export function changeDescription(change: PlannedChange): string {
  return actionDescription(change.action, change.reason);
}

const maxValueLength = 60;

function shown(value: unknown): string {
  const text = value === undefined ? 'null' : typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > maxValueLength ? `${text.slice(0, maxValueLength - 1)}…` : text;
}

/** One line per changed attribute: `name: before → after`. */
export function attributeLines(change: PlannedChange): string[] {
  return change.attributes.map((attribute) => {
    if (attribute.sensitive) return `${attribute.name}: (sensitive)`;
    const after = attribute.unknownAfter ? '(known after apply)' : shown(attribute.after);
    if (change.action === 'create') return `${attribute.name}: ${after}`;
    if (change.action === 'delete') return `${attribute.name}: ${shown(attribute.before)}`;
    return `${attribute.name}: ${shown(attribute.before)} → ${after}`;
  });
}

/** Markdown for the tooltip, every service-provided text escaped. */
export function changeTooltipMarkdown(change: PlannedChange): string {
  const lines = [`**${escapeMarkdown(change.address)}** · ${escapeMarkdown(changeDescription(change))}`];
  const attributes = attributeLines(change);
  if (attributes.length > 0) lines.push('', ...attributes.map((line) => `${escapeMarkdown(line)}  `));
  lines.push('', change.uri ? 'Select to open its block.' : 'No block in the linked folder\'s code (removed, or from a remote module).');
  return lines.join('\n');
}

/** The codicon and theme colour of a change's icon. */
export function changeIcon(action: string): { icon: string; color: string } {
  const look = actionLook(action);
  return { icon: look.codicon, color: look.themeColor };
}

// Hover on a resource / data block's header line: what the plan shown on the code does to it, per instance, with
// the attributes that change (before → after, "(known after apply)"), the reason for a replace, and which run
// planned it when. Sensitive values are never in PlanInstanceChange (changes.ts drops them); this file also never
// prints anything for an attribute marked sensitive, whatever else it carries.
import { MarkupKind } from 'vscode-languageserver';
import type { Hover } from 'vscode-languageserver';
import type { PlanBlockVerdict, PlanInstanceChange, PlanOverlay } from '../protocol';
import { relativeTime } from './codeLens';
import { actionLabel } from '../plans/labels';

const maxInstancesShown = 10;
const maxValueLength = 80;

export function providePlanHover(verdicts: ReadonlyArray<{ overlay: PlanOverlay; block: PlanBlockVerdict }>, line: number, now: number): Hover | undefined {
  const here = verdicts.filter(({ block }) => block.range.start.line === line);
  if (here.length === 0) return undefined;
  const value = here.map(({ overlay, block }) => planHoverText(overlay, block, now)).join('\n\n---\n\n');
  return { contents: { kind: MarkupKind.Markdown, value }, range: here[0]!.block.range };
}

export function planHoverText(overlay: PlanOverlay, block: PlanBlockVerdict, now: number): string {
  const lines: string[] = [`**${escape(block.label)}** · \`${block.address}\``];
  if (block.drifted) lines.push('Changed outside Terraform since the last apply (refresh-only plan).');
  const changing = block.instances.filter((instance) => instance.action !== 'no-op');
  for (const instance of changing.slice(0, maxInstancesShown)) lines.push(instanceText(instance, block.address, changing.length > 1 || instance.address !== block.address));
  if (changing.length > maxInstancesShown) lines.push(`…and ${changing.length - maxInstancesShown} more instances`);
  lines.push(runLine(overlay, now));
  if (overlay.stale) lines.push('_Files of this folder changed after this plan was put on the code: the verdict may be out of date. Plan local changes for a current one._');
  return lines.join('\n\n');
}

function instanceText(instance: PlanInstanceChange, blockAddress: string, named: boolean): string {
  const key = instance.address.startsWith(blockAddress) ? instance.address.slice(blockAddress.length) : instance.address;
  const head = `${named ? `\`${key || instance.address}\` ` : ''}${escape(actionLabel(instance))}`;
  const reason = instance.reason && instance.action !== 'replace' ? ` (${escape(instance.reason)})` : '';
  const attributes = instance.attributes.map((attribute) => `- \`${attribute.name}\`: ${attributeChange(attribute)}`);
  return [head + reason, ...attributes].join('\n');
}

/** `before → after`; a sensitive attribute shows only that it is sensitive. */
export function attributeChange(attribute: PlanInstanceChange['attributes'][number]): string {
  if (attribute.sensitive) return '(sensitive value)';
  const before = attribute.before === undefined ? undefined : showValue(attribute.before);
  const after = attribute.unknownAfter ? '(known after apply)' : attribute.after === undefined ? '(removed)' : showValue(attribute.after);
  return before === undefined ? after : `${before} → ${after}`;
}

/** A value as inline code, cut to a readable length. */
export function showValue(value: unknown): string {
  let text = JSON.stringify(value) ?? String(value);
  if (text.length > maxValueLength) text = `${text.slice(0, maxValueLength - 1)}…`;
  return `\`${text.replace(/`/g, "'")}\``;
}

function runLine(overlay: PlanOverlay, now: number): string {
  const when = overlay.plannedAt ? relativeTime(Date.parse(overlay.plannedAt), now) : undefined;
  const parts = [`Run \`${overlay.runId}\``];
  if (overlay.runMessage) parts.push(`"${escape(overlay.runMessage)}"`);
  if (overlay.runStatus) parts.push(overlay.runStatus.replace(/_/g, ' '));
  if (when) parts.push(`planned ${when}`);
  return parts.join(' · ');
}

/** Markdown's own characters in text from the service or the labels (`+`, `~`, `-` would start lists or strike). */
function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]<>()#+\-!~|]/g, (character) => `\\${character}`);
}

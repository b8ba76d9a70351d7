// How a change request looks in the Change Requests view and in its document. No `vscode` import: unit-tested with
// node:test. The message is the author's markdown and is rendered as such; the rest is escaped.
import type { ChangeRequestSummary } from '../../../server/src/protocol';
import { escapeMarkdown, relativeTime } from '../runs/tree/runPresentation';

/** Open ones first (newest first), archived ones apart (most recently archived first), as the service sorts them. */
export function splitChangeRequests(list: readonly ChangeRequestSummary[]): { open: ChangeRequestSummary[]; archived: ChangeRequestSummary[] } {
  const newest = (key: 'createdAt' | 'archivedAt') => (a: ChangeRequestSummary, b: ChangeRequestSummary) => (b[key] ?? '').localeCompare(a[key] ?? '');
  return {
    open: list.filter((cr) => !cr.archived).sort(newest('createdAt')),
    archived: list.filter((cr) => cr.archived).sort(newest('archivedAt')),
  };
}

/** "2 d ago · olivia-owner", or for an archived one "archived 1 h ago by max-member". */
export function changeRequestDescription(cr: ChangeRequestSummary, now: number): string {
  if (cr.archived) {
    const when = relativeTime(cr.archivedAt, now);
    return ['archived', when, cr.archivedBy ? `by ${cr.archivedBy}` : undefined].filter(Boolean).join(' ');
  }
  return [relativeTime(cr.createdAt, now), cr.createdBy].filter(Boolean).join(' · ');
}

/** Menus key on these words (`archive` only while it is open). */
export function changeRequestContextValue(cr: ChangeRequestSummary): string {
  return cr.archived ? 'hcpChangeRequest archived show' : 'hcpChangeRequest open show archive';
}

/** The read-only document: subject, who and when, then the message as the markdown it is. */
export function changeRequestMarkdown(cr: ChangeRequestSummary, workspace: { organization: string; name: string }): string {
  const facts = [
    `Workspace: ${escapeMarkdown(`${workspace.organization}/${workspace.name}`)}`,
    cr.createdAt ? `Created ${cr.createdAt}${cr.createdBy ? ` by ${escapeMarkdown(cr.createdBy)}` : ''}` : undefined,
    cr.archived ? `**Archived**${cr.archivedAt ? ` ${cr.archivedAt}` : ''}${cr.archivedBy ? ` by ${escapeMarkdown(cr.archivedBy)}` : ''}` : 'Open',
    `ID: \`${cr.id}\``,
  ].filter(Boolean);
  const message = cr.message.trim() ? cr.message : '_No message._';
  return `# ${escapeMarkdown(cr.subject || '(no subject)')}\n\n${facts.map((fact) => `- ${fact}`).join('\n')}\n\n---\n\n${message}\n`;
}

/** Why the list is empty or failed, when the organization's plan lacks the feature (the service answers 404 then). */
export function featureMissingMessage(organization: string, planName: string | undefined): string {
  return `Change requests are not in ${organization}'s plan${planName ? ` (${planName})` : ''}: they need the top paid edition.`;
}

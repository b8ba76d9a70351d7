// A code lens on each resource / data block with the verdict of the plan shown on the code (planOverlays.ts):
// `+ create`, `~ update in place (3)`, `3 of 5 instances change`… A stale overlay says so on every lens and offers
// "Plan local changes" once per file, so the user can get a verdict for what they have now.
import type { CodeLens } from 'vscode-languageserver';
import type { PlanBlockVerdict, PlanOverlay } from '../protocol';
import { infoCommand, serverCommand } from './commands';

export function providePlanLenses(verdicts: ReadonlyArray<{ overlay: PlanOverlay; block: PlanBlockVerdict }>): CodeLens[] {
  const lenses: CodeLens[] = [];
  const offered = new Set<string>();
  // One module called from two linked folders has two verdicts on one block: say whose is whose.
  const perRange = new Map<string, number>();
  for (const { block } of verdicts) perRange.set(rangeKey(block), (perRange.get(rangeKey(block)) ?? 0) + 1);
  for (const { overlay, block } of verdicts) {
    const range = { start: block.range.start, end: block.range.start };
    const prefix = (perRange.get(rangeKey(block)) ?? 0) > 1 ? `${block.address}: ` : '';
    const title = `${prefix}${planTitle(overlay, block)}`;
    lenses.push({ range, command: infoCommand(title) });
    if (overlay.stale && !offered.has(overlay.folderUri)) {
      offered.add(overlay.folderUri);
      lenses.push({
        range,
        command: serverCommand('Plan local changes', 'planLocalChanges', { hostname: overlay.hostname, folderUri: overlay.folderUri, workspaceId: overlay.workspaceId, message: 'Plan local changes from the editor' }),
      });
    }
  }
  return lenses;
}

/** The lens text: the verdict, and why it may not be current. */
export function planTitle(overlay: PlanOverlay, block: PlanBlockVerdict): string {
  const notes: string[] = [];
  if (overlay.stale) notes.push('plan out of date: files changed since');
  if (overlay.runStatus === 'applied') notes.push('applied');
  return `Plan: ${block.label}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

function rangeKey(block: PlanBlockVerdict): string {
  return `${block.uri}#${block.range.start.line}`;
}

// Code lenses above the cloud block (or remote backend) that links the folder: the workspace's current run with its
// status and age, one lens per action its `actions` flags allow, and "Queue plan" when nothing is in progress.
import type { CodeLens } from 'vscode-languageserver';
import type { ModuleFolderModel } from '../model';
import { runStatusLabel } from '../api/runStatuses';
import { infoCommand, serverCommand } from './commands';
import type { SnapshotRun, WorkspaceSnapshot } from './host';
import { distinctRuns } from './runActions';
import { shorten } from './runMessage';

export function provideCodeLenses(model: ModuleFolderModel, snapshot: WorkspaceSnapshot | undefined, file: string, now: number): CodeLens[] {
  const block = model.serviceLink().block;
  if (!block || block.file !== file) return [];
  const range = { start: block.range.start, end: block.range.start };
  const state = snapshot?.workspace;
  // Text-only: a real command that does nothing (an empty command id is no command, and editors other than VS Code
  // drop a lens without one).
  const info = (title: string): CodeLens => ({ range, command: infoCommand(title) });
  switch (state?.kind) {
    case 'linked':
      break;
    case 'signed-out':
      return [info(`HCP Terraform: sign in to ${state.hostname} to see runs`)];
    case 'not-found':
      return [info(`HCP Terraform: workspace "${state.name}" not found in ${state.organization}`)];
    case 'error':
      return [info(`HCP Terraform: ${state.message}`)];
    case 'not-linked':
      return [];
    default:
      return [info('HCP Terraform: loading workspace…')];
  }
  const workspace = state.workspace;
  const runs = snapshot?.runs;
  const lenses: CodeLens[] = [];
  const current = runs?.current;
  lenses.push(info(current ? `${workspace.name}: ${describeRun(current, now)}` : `${workspace.name}: no runs yet`));
  for (const run of distinctRuns(runs)) {
    // Actions on the current run are plain "Apply"; on another run (e.g. one pending behind it) they say which.
    const suffix = run.id === current?.id ? '' : ` ${runStatusLabel(run.status).toLowerCase()} run`;
    const act = (title: string, verb: 'applyRun' | 'discardRun' | 'cancelRun' | 'forceCancelRun') => lenses.push({ range, command: serverCommand(title + suffix, verb, { hostname: workspace.hostname, runId: run.id }) });
    if (run.actions.isConfirmable) act('Apply', 'applyRun');
    if (run.actions.isDiscardable) act('Discard', 'discardRun');
    if (run.actions.isCancelable) act('Cancel', 'cancelRun');
    if (run.actions.isForceCancelable) act('Force cancel', 'forceCancelRun');
  }
  const inProgress = runs?.active ?? runs?.awaitingConfirmation;
  if (runs && !inProgress && workspace.permissions?.canQueueRun !== false) lenses.push({ range, command: serverCommand('Queue plan', 'queuePlan', { hostname: workspace.hostname, workspaceId: workspace.id, message: 'Queued from the editor' }) });
  return lenses;
}

function describeRun(run: SnapshotRun, now: number): string {
  const when = run.statusChangedAt ?? run.createdAt;
  const age = when ? relativeTime(Date.parse(when), now) : undefined;
  return `${runStatusLabel(run.status)}${age ? ` · ${age}` : ''}${run.message ? ` · ${shorten(run.message)}` : ''}`;
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago"; undefined for an unreadable time. */
export function relativeTime(then: number, now: number): string | undefined {
  if (!Number.isFinite(then)) return undefined;
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 45) return 'just now';
  const units: [number, string][] = [[60, 'minute'], [3600, 'hour'], [86400, 'day']];
  let chosen: [number, string] = units[0]!;
  for (const unit of units) if (seconds >= unit[0]) chosen = unit;
  const count = Math.max(1, Math.round(seconds / chosen[0]));
  return `${count} ${chosen[1]}${count === 1 ? '' : 's'} ago`;
}

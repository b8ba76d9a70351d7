// What the status bar item shows, decided without vscode so it is unit-tested: which linked folder the active editor
// belongs to, which run is the workspace's current one after a change, and the item's text, icon and tooltip.
import type { LinkedFolder, LinkedWorkspace, RunSummary } from '../../server/src/protocol';
import { isFinalRunStatus } from '../../server/src/api/runStatuses';

/**
 * The folder whose workspace the status bar shows: the deepest module folder containing the active file, and only
 * when that folder is linked (a module folder without a workspace hides the item). Without an editor on a file,
 * the only linked folder when there is exactly one.
 */
export function folderForFile(fileUri: string | undefined, folders: readonly LinkedFolder[]): LinkedFolder | undefined {
  if (fileUri === undefined) {
    const linked = folders.filter((folder) => folder.state.kind === 'linked');
    return linked.length === 1 ? linked[0] : undefined;
  }
  const file = comparableUri(fileUri);
  const containing = folders
    .filter((folder) => {
      const root = comparableUri(folder.folderUri);
      return file === root || file.startsWith(`${root}/`);
    })
    .sort((a, b) => comparableUri(b.folderUri).length - comparableUri(a.folderUri).length);
  const deepest = containing[0];
  return deepest?.state.kind === 'linked' ? deepest : undefined;
}

/**
 * The workspace's current run after the watcher reported `changed` runs: the same run with its new state, or a
 * newer run (the service makes the newest run current, except a `pending` one queued behind a run still going).
 */
export function currentRunAfterChange(current: RunSummary | undefined, changed: readonly RunSummary[]): RunSummary | undefined {
  let result = current;
  for (const run of changed) {
    if (result && run.id === result.id) {
      result = run;
      continue;
    }
    if (result && !isNewer(run, result)) continue;
    if (result && run.status === 'pending' && !isFinalRunStatus(result.status)) continue;
    result = run;
  }
  return result;
}

function isNewer(run: RunSummary, than: RunSummary): boolean {
  if (!run.createdAt || !than.createdAt) return false; // no way to tell: keep what the service called current
  return Date.parse(run.createdAt) > Date.parse(than.createdAt);
}

export type RunIcon = 'sync~spin' | 'warning' | 'error' | 'check' | 'cloud';

/** The states a run waits in for a person's go-ahead (spec: the confirmable ones), when its actions allow it. */
const confirmationStatuses = new Set(['planned', 'cost_estimated', 'policy_checked', 'policy_override']);
/** Waiting for someone: not running, though not final either. */
const waitingStatuses = new Set([...confirmationStatuses, 'planned_and_saved', 'policy_soft_failed', 'pre_plan_awaiting_decision', 'post_plan_awaiting_decision']);

export function needsConfirmation(run: RunSummary): boolean {
  return confirmationStatuses.has(run.status) && run.actions.isConfirmable;
}

/** running = sync~spin, needs confirmation = warning, errored = error, applied = check, anything else = cloud. */
export function runIcon(run: RunSummary | undefined): RunIcon {
  if (!run) return 'cloud';
  if (needsConfirmation(run)) return 'warning';
  if (run.status === 'errored') return 'error';
  if (run.status === 'applied') return 'check';
  if (!isFinalRunStatus(run.status) && !waitingStatuses.has(run.status)) return 'sync~spin';
  return 'cloud';
}

export interface StatusBarView {
  text: string;
  tooltip: string;
  /** The run a click opens; undefined means a click queues a plan (the workspace has no run yet). */
  run?: RunSummary;
}

/** "$(warning) demo-app: Needs confirmation", with the run's message and org/workspace as tooltip. */
export function statusBarView(workspace: LinkedWorkspace, run: RunSummary | undefined): StatusBarView {
  const where = `${workspace.organization}/${workspace.name} on ${workspace.hostname}`;
  if (!run) return { text: `$(cloud) ${workspace.name}: no runs`, tooltip: `${where}\nNo runs yet: click to queue a plan.` };
  const message = run.message?.split('\n')[0]?.trim();
  return {
    text: `$(${runIcon(run)}) ${workspace.name}: ${run.statusLabel}`,
    tooltip: `${message ? `${message}\n` : ''}${where}\nRun ${run.id}: ${run.statusLabel}. Click to show the run.`,
    run,
  };
}

function comparableUri(uri: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(uri);
  } catch {
    decoded = uri;
  }
  return decoded.replace(/\/+$/, '');
}

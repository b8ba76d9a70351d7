// What the status bar item says for the active editor: the workspace of the deepest linked folder that holds the
// file (or the only linked folder when no file is open), with its current run. Pure (no vscode import): unit-tested.
import type { LinkedFolder, LinkedWorkspace, RunSummary } from '../../../server/src/protocol';
import { runLabel, stateGroup } from '../runs/tree/runPresentation';

export type LinkedOnly = LinkedFolder & { state: { kind: 'linked'; workspace: LinkedWorkspace } };

export interface StatusBarState {
  text: string;
  tooltip: string;
  workspace: LinkedWorkspace & { folderUri: string };
  run?: RunSummary;
}

/** The linked folder the active file belongs to (deepest first); the only linked one when there is no file. */
export function folderForActiveFile(folders: readonly LinkedFolder[], activeUri: string | undefined): LinkedOnly | undefined {
  const linked = folders.filter((f): f is LinkedOnly => f.state.kind === 'linked');
  if (activeUri) {
    const holding = linked.filter((f) => activeUri.startsWith(`${f.folderUri.replace(/\/+$/, '')}/`)).sort((a, b) => b.folderUri.length - a.folderUri.length);
    return holding[0];
  }
  return linked.length === 1 ? linked[0] : undefined;
}

const icons: Record<ReturnType<typeof stateGroup>, string> = {
  pending: '$(clock)',
  running: '$(sync~spin)',
  attention: '$(warning)',
  success: '$(check)',
  error: '$(error)',
  stopped: '$(circle-slash)',
  unknown: '$(cloud)',
};

export function statusBarState(folder: LinkedOnly, current: RunSummary | undefined): StatusBarState {
  const workspace = { ...folder.state.workspace, folderUri: folder.folderUri };
  const where = `${workspace.organization}/${workspace.name} on ${workspace.hostname}`;
  if (!current) return { text: `$(cloud) ${workspace.name}`, tooltip: `${where}\nNo run yet: click to queue a plan.`, workspace };
  return {
    text: `${icons[stateGroup(current.status)]} ${workspace.name}: ${current.statusLabel}`,
    tooltip: `${where}\nCurrent run: ${runLabel(current)} (${current.statusLabel})\nClick to show the run.`,
    workspace,
    run: current,
  };
}

/**
 * The current run after a change: the same run updated, or a newer run of the workspace that is not plan-only
 * (plan-only runs never become a workspace's current run).
 */
export function nextCurrentRun(current: RunSummary | undefined, changed: readonly RunSummary[]): RunSummary | undefined {
  let next = current;
  for (const run of changed) {
    if (run.id === next?.id) next = run;
    else if (!run.planOnly && (!next?.createdAt || (run.createdAt !== undefined && run.createdAt > next.createdAt))) next = run;
  }
  return next;
}

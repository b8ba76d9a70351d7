// What the Runs view's nodes carry, shared by the tree (which creates them) and the commands (which receive them as
// their first argument from a context menu, or pick one themselves from the palette).
import type { PlanInstanceChange, RunSummary, WorkspacePermissionsSummary } from '../../../server/src/protocol';

/** A workspace as the client refers to it: enough to list its runs, act on them and open it on the service. */
export interface WorkspaceRef {
  id: string;
  name: string;
  organization: string;
  /** Host name (`app.terraform.io`, `127.0.0.1:41234`): every request about it names this host. */
  hostname: string;
  /** The module folder (file URI) linked to it; undefined for a pinned workspace. */
  folderUri?: string;
  permissions?: WorkspacePermissionsSummary;
}

export interface WorkspaceNode {
  kind: 'workspace';
  workspace: WorkspaceRef;
  pinned: boolean;
  /** Whether its permissions and current run were read (the Runs view reads them once, then follows changes). */
  loaded?: boolean;
}

export interface RunNode {
  kind: 'run';
  run: RunSummary;
  workspace: WorkspaceRef;
}

export interface PhaseNode {
  kind: 'phase';
  phase: 'plan' | 'cost-estimate' | 'policy-check' | 'apply';
  run: RunSummary;
  workspace: WorkspaceRef;
  /** What the run's details said of this phase. */
  status: string;
  /** "+2 ~1 -0", "$12.30/month (+$1.10)", "2 passed, 1 soft-failed": what the phase counted, if anything. */
  summary?: string;
  /** Whether the phase has a log to open (plan and apply). */
  hasLog: boolean;
}

/** Under a run whose plan finished: the changes it plans, listed when expanded (hcpTerraform/planResourceChanges). */
export interface ResourceChangesNode {
  kind: 'resourceChanges';
  run: RunSummary;
  workspace: WorkspaceRef;
  /** "+2 ~1 -0", from the plan's counts. */
  summary?: string;
}

/** A planned change of one instance, with its block in the linked folder's code when it has one. */
export type PlannedChange = PlanInstanceChange & { uri?: string; range?: import('vscode-languageserver-protocol').Range };

export interface ResourceChangeNode {
  kind: 'resourceChange';
  change: PlannedChange;
  run: RunSummary;
  workspace: WorkspaceRef;
  parent: ResourceChangesNode;
}

export interface LoadMoreNode {
  kind: 'loadMore';
  workspace: WorkspaceRef;
  nextPage: number;
}

export interface MessageNode {
  kind: 'message';
  text: string;
  tooltip?: string;
  /** A codicon id; `info` when none (a failed read is a `warning`). */
  icon?: string;
  command?: { command: string; title: string; arguments?: unknown[] };
}

export type RunsTreeNode = WorkspaceNode | RunNode | PhaseNode | ResourceChangesNode | ResourceChangeNode | LoadMoreNode | MessageNode;

/** A run (and the workspace it belongs to), from a tree node or anything else a command may be handed. */
export function runNodeOf(value: unknown): RunNode | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const node = value as Partial<RunNode>;
  const kind = (node as { kind?: string }).kind;
  const ofRun = kind === 'run' || kind === 'phase' || kind === 'resourceChanges' || kind === 'resourceChange';
  return ofRun && node.run && node.workspace ? { kind: 'run', run: node.run, workspace: node.workspace } : undefined;
}

export function workspaceRefOf(value: unknown): WorkspaceRef | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const workspace = (value as { workspace?: Partial<WorkspaceRef> }).workspace;
  return workspace && typeof workspace.id === 'string' ? (workspace as WorkspaceRef) : undefined;
}

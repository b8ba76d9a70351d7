// The Runs view: linked workspaces (one per workspace, from the server's linkedWorkspaces), then pinned ones; under
// each its runs, newest first, a page at a time; under a run its phases. Nodes are kept per run id and updated in
// place, so a runsChanged notification re-renders exactly the runs that changed (and their workspace when its
// current run moved), with no list request.
import * as vscode from 'vscode';
import type { LinkedFolder, RunDetails, RunSummary } from '../../../../server/src/protocol';
import { linkedWorkspacesRequest, planResourceChangesRequest, runDetailsRequest, runsRequest, workspaceRequest } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import { log } from '../../log';
import { errorMessage } from '../../serverAccess';
import { failedRead, readFailureText, type ReadState } from '../../views/staleList';
import type { LoadMoreNode, MessageNode, PhaseNode, ResourceChangeNode, ResourceChangesNode, RunNode, RunsTreeNode, WorkspaceNode, WorkspaceRef } from '../model';
import { sortedChanges } from './resourceChangePresentation';
import type { PinnedWorkspaces } from './pins';
import { filterParams, type RunFilters } from './runFilters';
import { forceCancelWaitMs, policyCheckFinished, resourceCounts } from './runPresentation';
import { treeItemOf } from './treeItems';

/** A workspace's runs as last read; `error` (shown as a row above them) is why the newest read failed. */
interface RunList extends ReadState {
  runs: RunNode[];
  nextPage?: number;
  /** Refresh asked for a new read: the list stays on screen until the service answers, and stays if it fails. */
  stale?: boolean;
}

const keyOf = (workspace: { hostname: string; id: string }) => `${workspace.hostname}\u0000${workspace.id}`;

export class RunsTreeProvider implements vscode.TreeDataProvider<RunsTreeNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<RunsTreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Runs per page (the issue's 20; tests may lower it to see paging on a small seed). */
  pageSize = 20;
  private filters: RunFilters = {};
  private readonly workspaces = new Map<string, WorkspaceNode>();
  private readonly lists = new Map<string, RunList>();
  /**
   * First pages being read. VS Code and a command (or a test) may ask for a workspace's children at once: both must
   * get the one list, or a page loaded into one of them (Load more…) is lost when the other lands.
   */
  private readonly firstPages = new Map<string, Promise<RunList>>();
  private readonly runs = new Map<string, RunNode>();
  private readonly current = new Map<string, RunSummary>();
  private countdown: ReturnType<typeof setInterval> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly deps: ClientDeps,
    private readonly pins: PinnedWorkspaces,
  ) {
    this.subscriptions.push(
      deps.events.onRunsChanged(({ hostname, workspaceId, runs }) => this.runsChanged(hostname, workspaceId, runs)),
      deps.activity.onDidAct((run) => {
        const workspace = [...this.workspaces.values()].find((node) => node.workspace.id === run.workspaceId);
        if (workspace) this.runsChanged(workspace.workspace.hostname, workspace.workspace.id, [run]);
      }),
      deps.events.onWorkspaceChanged(() => this.changed.fire(undefined)),
      deps.server.onDidStart(() => this.reset()),
      // Sign-out, or another account or token: nothing read with the previous one stays on screen, neither its runs
      // nor what it was allowed to do with them (a read-only token must not be offered Apply, Discard or Queue Plan).
      deps.credentials.onDidChange(() => this.reset()),
    );
  }

  /** Forgets everything and reloads from the server. */
  reset(): void {
    this.workspaces.clear();
    this.forgetLists();
    this.runs.clear();
    this.current.clear();
    this.changed.fire(undefined);
  }

  /**
   * Reads everything again (the Refresh button): each workspace's permissions and current run, and its runs. What was
   * read stays on screen until the new reads answer, and stays (marked with the error) if they fail.
   */
  refresh(): void {
    for (const list of this.lists.values()) list.stale = true;
    this.firstPages.clear();
    for (const workspace of this.workspaces.values()) workspace.loaded = false;
    this.current.clear();
    this.changed.fire(undefined);
  }

  get activeFilters(): RunFilters {
    return this.filters;
  }

  setFilters(filters: RunFilters): void {
    this.filters = filters;
    this.forgetLists();
    this.changed.fire(undefined);
  }

  getTreeItem(node: RunsTreeNode): vscode.TreeItem {
    return treeItemOf(node, Date.now(), (workspace) => this.runsState(workspace));
  }

  /** The workspace's current run (else its newest listed one), and whether its runs could not be read at all. */
  private runsState(workspace: WorkspaceNode): { current?: RunSummary; unread: boolean } {
    const list = this.lists.get(keyOf(workspace.workspace));
    const current = this.current.get(keyOf(workspace.workspace)) ?? list?.runs[0]?.run;
    return current ? { current, unread: false } : { unread: list?.error !== undefined && list.readAt === undefined };
  }

  getParent(node: RunsTreeNode): RunsTreeNode | undefined {
    if (node.kind === 'run' || node.kind === 'loadMore') return this.workspaces.get(keyOf(node.workspace));
    if (node.kind === 'phase' || node.kind === 'resourceChanges') return this.runs.get(node.run.id);
    if (node.kind === 'resourceChange') return node.parent;
    return undefined;
  }

  async getChildren(node?: RunsTreeNode): Promise<RunsTreeNode[]> {
    try {
      if (!node) return await this.topLevel();
      if (node.kind === 'workspace') return await this.runsOf(node);
      if (node.kind === 'run') return await this.phasesOf(node);
      if (node.kind === 'resourceChanges') return await this.changesOf(node);
      return [];
    } catch (error) {
      log.warn(`Runs view: ${errorMessage(error)}`);
      return [message(`Could not load: ${errorMessage(error)}`, 'Refresh the view to try again.', { command: 'hcpTerraform.refresh', title: 'Refresh' })];
    }
  }

  /** The workspace nodes on screen (linked then pinned), for commands and tests. */
  workspaceNodes(): WorkspaceNode[] {
    return [...this.workspaces.values()];
  }

  runNode(runId: string): RunNode | undefined {
    return this.runs.get(runId);
  }

  /** Loads the next page of a workspace's runs (the "Load more…" item). */
  async loadMore(node: LoadMoreNode): Promise<void> {
    const list = this.lists.get(keyOf(node.workspace));
    const workspace = this.workspaces.get(keyOf(node.workspace));
    if (!list || !workspace) return;
    const page = await this.fetchPage(workspace.workspace, node.nextPage);
    list.runs.push(...page.runs.filter((run) => !list.runs.includes(run)));
    list.nextPage = page.nextPage;
    this.changed.fire(workspace);
  }

  private async topLevel(): Promise<RunsTreeNode[]> {
    if (!this.deps.server.running) return [];
    const folders = await this.deps.server.request(linkedWorkspacesRequest);
    const nodes: RunsTreeNode[] = [];
    const seen = new Set<string>();
    for (const folder of folders) {
      if (folder.state.kind === 'linked') {
        const ref: WorkspaceRef = { ...folder.state.workspace, folderUri: folder.folderUri };
        if (seen.has(keyOf(ref))) continue;
        seen.add(keyOf(ref));
        nodes.push(this.workspaceNode(ref, false));
      } else {
        const explained = explainFolder(folder);
        if (explained) nodes.push(explained);
      }
    }
    for (const pin of this.pins.all()) {
      if (seen.has(keyOf(pin))) continue;
      seen.add(keyOf(pin));
      nodes.push(this.workspaceNode(pin, true));
    }
    // Only workspaces stay cached: the others may have been unlinked or unpinned.
    for (const key of [...this.workspaces.keys()]) if (!seen.has(key)) this.workspaces.delete(key);
    // The workspaces' current runs come with the first rendering (a change event for an item VS Code has not rendered
    // yet would be lost): one read per workspace, in parallel, the first time it is shown.
    await Promise.all(nodes.filter((node): node is WorkspaceNode => node.kind === 'workspace' && !node.loaded).map((node) => this.loadWorkspace(node)));
    // Signed out everywhere: an empty tree lets the view's welcome say "Sign in to <host>" with its button.
    if (seen.size === 0 && folders.every((folder) => folder.state.kind === 'signed-out' || folder.mechanism === 'none')) return [];
    return nodes;
  }

  private workspaceNode(ref: WorkspaceRef, pinned: boolean): WorkspaceNode {
    const key = keyOf(ref);
    const known = this.workspaces.get(key);
    if (known && known.pinned === pinned) {
      known.workspace = { ...ref, permissions: known.workspace.permissions };
      return known;
    }
    const node: WorkspaceNode = { kind: 'workspace', workspace: ref, pinned };
    this.workspaces.set(key, node);
    return node;
  }

  /** Reads the workspace's permissions and current run; the item re-renders when they arrive. */
  private async loadWorkspace(node: WorkspaceNode): Promise<void> {
    try {
      const summary = await this.deps.server.request(workspaceRequest, { hostname: node.workspace.hostname, workspaceId: node.workspace.id });
      node.loaded = true;
      node.workspace.permissions = summary.permissions;
      if (summary.currentRun) this.current.set(keyOf(node.workspace), summary.currentRun);
      this.changed.fire(node);
    } catch (error) {
      // Not fatal: the newest listed run stands in for the current one, and every action stays offered.
      log.warn(`Could not read workspace ${node.workspace.organization}/${node.workspace.name}: ${errorMessage(error)}`);
    }
  }

  private forgetLists(): void {
    this.lists.clear();
    this.firstPages.clear();
  }

  private async runsOf(node: WorkspaceNode): Promise<RunsTreeNode[]> {
    const known = this.lists.get(keyOf(node.workspace));
    const list = known && !known.stale ? known : await this.firstPage(node);
    const children: RunsTreeNode[] = [...list.runs];
    if (list.error) children.unshift({ ...message(readFailureText('runs', list), 'Refresh the view to try again.', { command: 'hcpTerraform.refresh', title: 'Refresh' }), icon: 'warning' });
    else if (list.runs.length === 0) children.push(message(this.filtersOn() ? 'No runs match the filters.' : 'No runs yet.'));
    if (list.nextPage) children.push({ kind: 'loadMore', workspace: node.workspace, nextPage: list.nextPage });
    this.scheduleCountdown();
    return children;
  }

  /**
   * The workspace's first page, read once however many ask; a read that a refresh overtook is not kept. A failed read
   * keeps the runs read before (README: values read before stay when the service fails), with the error.
   */
  private firstPage(node: WorkspaceNode): Promise<RunList> {
    const { workspace } = node;
    const key = keyOf(workspace);
    const pending = this.firstPages.get(key);
    if (pending) return pending;
    const reading = this.fetchPage(workspace, 1)
      .then((list): RunList => ({ ...list, readAt: Date.now() }))
      .catch((error: unknown): RunList => ({ ...failedRead(this.lists.get(key), { runs: [] }, error), stale: false }))
      .then((list) => {
        if (this.firstPages.get(key) !== reading) return list;
        this.firstPages.delete(key);
        this.lists.set(key, list);
        // The workspace row was drawn before its runs were asked for: it says they could not be read, not "no runs yet".
        if (list.error && list.runs.length === 0) this.changed.fire(node);
        return list;
      });
    this.firstPages.set(key, reading);
    return reading;
  }

  private async fetchPage(workspace: WorkspaceRef, pageNumber: number): Promise<RunList> {
    const result = await this.deps.server.request(runsRequest, {
      hostname: workspace.hostname,
      workspaceId: workspace.id,
      pageNumber,
      pageSize: this.pageSize,
      ...filterParams(this.filters),
    });
    const runs = result.runs.map((run) => this.runNodeFor(workspace, run));
    return { runs, ...(result.page.next ? { nextPage: result.page.next } : {}) };
  }

  /** The one node of a run, updated in place so VS Code keeps its expansion and selection. */
  private runNodeFor(workspace: WorkspaceRef, run: RunSummary): RunNode {
    const known = this.runs.get(run.id);
    if (known) {
      known.run = run;
      known.workspace = workspace;
      return known;
    }
    const node: RunNode = { kind: 'run', run, workspace };
    this.runs.set(run.id, node);
    return node;
  }

  private async phasesOf(node: RunNode): Promise<RunsTreeNode[]> {
    const details = await this.deps.server.request(runDetailsRequest, { hostname: node.workspace.hostname, runId: node.run.id });
    const phases: RunsTreeNode[] = phaseNodes(node, details);
    // What the plan changes, once there is a finished plan to read (read only when expanded).
    if (details.plan?.status === 'finished') {
      phases.push({ kind: 'resourceChanges', run: details.run, workspace: node.workspace, ...optional(resourceCounts(details.plan)) });
    }
    return phases;
  }

  private async changesOf(node: ResourceChangesNode): Promise<RunsTreeNode[]> {
    const { changes } = await this.deps.server.request(planResourceChangesRequest, { hostname: node.workspace.hostname, runId: node.run.id });
    if (changes.length === 0) return [message('No changes: the plan leaves every resource as it is.')];
    return sortedChanges(changes).map((change): ResourceChangeNode => ({ kind: 'resourceChange', change, run: node.run, workspace: node.workspace, parent: node }));
  }

  private runsChanged(hostname: string, workspaceId: string, changedRuns: RunSummary[]): void {
    const workspace = this.workspaces.get(keyOf({ hostname, id: workspaceId }));
    const list = workspace ? this.lists.get(keyOf(workspace.workspace)) : undefined;
    let added = false;
    for (const run of changedRuns) {
      const known = this.runs.get(run.id);
      if (known) {
        known.run = run;
        this.changed.fire(known);
      } else if (workspace && list && !this.filtersOn()) {
        // A run the list has not shown yet: in its place, newest first (usually the top).
        const node = this.runNodeFor(workspace.workspace, run);
        const at = list.runs.findIndex((other) => (other.run.createdAt ?? '') < (run.createdAt ?? ''));
        if (at < 0 && list.nextPage) continue; // older than every run shown: it belongs to a page not loaded yet
        list.runs.splice(at < 0 ? list.runs.length : at, 0, node);
        added = true;
      }
    }
    if (!workspace) return;
    // The server's watcher read these runs, so the service answers again: a list whose last read failed is read anew,
    // which brings the runs created meanwhile and takes its error row away.
    if (list?.error) {
      list.stale = true;
      this.changed.fire(workspace);
    }
    const current = this.current.get(keyOf(workspace.workspace));
    const replacesCurrent = changedRuns.find((run) => run.id === current?.id);
    if (replacesCurrent) this.current.set(keyOf(workspace.workspace), replacesCurrent);
    if (added || replacesCurrent || !current) this.changed.fire(workspace);
    // A new run may have become the current one (the service decides): read it again.
    if (added || changedRuns.some((run) => run.id !== current?.id)) void this.loadWorkspace(workspace);
    this.scheduleCountdown();
  }

  private filtersOn(): boolean {
    return Boolean(this.filters.statusGroup || this.filters.operations?.length || this.filters.sources?.length);
  }

  /** While a run waits for force-cancel's cool-off, its countdown re-renders each second, and once more at the end. */
  private scheduleCountdown(): void {
    const waiting = () => [...this.runs.values()].filter((node) => forceCancelWaitMs(node.run, Date.now()) !== undefined || node.run.forceCancelAvailableAt);
    if (this.countdown || waiting().length === 0) return;
    this.countdown = setInterval(() => {
      const nodes = [...this.runs.values()].filter((node) => node.run.forceCancelAvailableAt);
      for (const node of nodes) this.changed.fire(node);
      if (nodes.every((node) => forceCancelWaitMs(node.run, Date.now()) === undefined)) {
        clearInterval(this.countdown);
        this.countdown = undefined;
      }
    }, 1_000);
  }

  dispose(): void {
    if (this.countdown) clearInterval(this.countdown);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}

function message(text: string, tooltip?: string, command?: MessageNode['command']): MessageNode {
  return { kind: 'message', text, ...(tooltip ? { tooltip } : {}), ...(command ? { command } : {}) };
}

/** A folder that is not (yet) linked to a workspace, told as an item that says what to do. */
function explainFolder(folder: LinkedFolder): MessageNode | undefined {
  const name = decodeURIComponent(folder.folderUri.replace(/\/+$/, '').split('/').pop() ?? folder.folderUri);
  switch (folder.state.kind) {
    case 'not-linked':
      return folder.mechanism === 'none'
        ? undefined // plain folders without a cloud block are not the view's business
        : message(`${name}: not linked (${folder.problems[0] ?? 'the cloud block is incomplete'})`, 'Link the folder to a workspace.', { command: 'hcpTerraform.linkFolder', title: 'Link Folder to Workspace', arguments: [{ folderUri: folder.folderUri }] });
    case 'signed-out':
      return message(`${name}: sign in to ${folder.state.hostname}`, `Sign in to see the runs of ${folder.workspaceName ?? 'its workspace'}.`, { command: 'hcpTerraform.signIn', title: 'Sign In', arguments: [{ host: folder.state.hostname }] });
    case 'loading':
      return message(`${name}: loading its workspace…`);
    case 'not-found':
      return message(`${name}: workspace ${folder.state.organization}/${folder.state.name} not found on ${folder.state.hostname}`, 'The workspace does not exist, or this token may not read it.', { command: 'hcpTerraform.linkFolder', title: 'Link Folder to Workspace', arguments: [{ folderUri: folder.folderUri }] });
    case 'error':
      return message(`${name}: ${folder.state.message}`, undefined, { command: 'hcpTerraform.refresh', title: 'Refresh' });
    default:
      return undefined;
  }
}

function phaseNodes(node: RunNode, details: RunDetails): PhaseNode[] {
  const base = { kind: 'phase' as const, run: details.run, workspace: node.workspace };
  node.run = details.run;
  const phases: PhaseNode[] = [];
  if (details.plan) phases.push({ ...base, phase: 'plan', status: details.plan.status, hasLog: true, ...optional(resourceCounts(details.plan)) });
  if (details.costEstimate) {
    const c = details.costEstimate;
    const summary = c.proposedMonthlyCost ? `$${c.proposedMonthlyCost}/month${c.deltaMonthlyCost ? ` (${c.deltaMonthlyCost.startsWith('-') ? '' : '+'}$${c.deltaMonthlyCost})` : ''}` : undefined;
    phases.push({ ...base, phase: 'cost-estimate', status: c.status, hasLog: false, ...optional(summary) });
  }
  for (const check of details.policyChecks ?? []) {
    const r = check.result;
    const summary = r && policyCheckFinished(check.status) ? [`${r.passed ?? 0} passed`, r.softFailed ? `${r.softFailed} soft-failed` : '', r.hardFailed ? `${r.hardFailed} hard-failed` : '', r.advisoryFailed ? `${r.advisoryFailed} advisory` : ''].filter(Boolean).join(', ') : undefined;
    phases.push({ ...base, phase: 'policy-check', status: check.status, hasLog: false, ...optional(summary) });
  }
  if (details.apply) phases.push({ ...base, phase: 'apply', status: details.apply.status, hasLog: true, ...optional(resourceCounts(details.apply)) });
  return phases;
}

function optional(summary: string | undefined): { summary?: string } {
  return summary ? { summary } : {};
}

// Run actions offered wherever the folder is linked to a workspace: queue plans (plain, targeting or replacing the
// resource/module at the cursor, destroy, refresh-only), plan the local files, act on the run awaiting confirmation
// or the running one (per its `actions` flags), and open a change request from the selection or a TODO comment.
import path from 'node:path';
import type { CodeAction, Range } from 'vscode-languageserver';
import type { ModuleFolderModel, TargetAddress, TextLines } from '../model';
import { comparePositions, LineIndex, rangeContains } from '../model';
import { fileUriOf } from '../model/filePaths';
import { runStatusLabel } from '../api/runStatuses';
import { serverCommand } from './commands';
import type { ClientPrompts } from './commands';
import type { LinkedWorkspace, SnapshotRun, WorkspaceSnapshot } from './host';
import { shorten } from './runMessage';

/** Custom code action kinds, under `source` so editors list them with other source actions. */
export const runActionKinds = {
  queuePlan: 'source.hcpTerraform.queuePlan',
  targetedPlan: 'source.hcpTerraform.queuePlan.target',
  replacePlan: 'source.hcpTerraform.queuePlan.replace',
  destroyPlan: 'source.hcpTerraform.queuePlan.destroy',
  refreshOnlyPlan: 'source.hcpTerraform.queuePlan.refreshOnly',
  planLocalChanges: 'source.hcpTerraform.planLocalChanges',
  applyRun: 'source.hcpTerraform.applyRun',
  discardRun: 'source.hcpTerraform.discardRun',
  cancelRun: 'source.hcpTerraform.cancelRun',
  forceCancelRun: 'source.hcpTerraform.forceCancelRun',
  createChangeRequest: 'source.hcpTerraform.createChangeRequest',
} as const;

export interface RunActionRequest {
  model: ModuleFolderModel;
  snapshot: WorkspaceSnapshot | undefined;
  file: string;
  text: string;
  /** The text's line offsets when the caller keeps them (an open document); otherwise they are computed. */
  lines?: TextLines;
  range: Range;
  /** What the client can ask its user (a change request's subject). */
  prompts?: ClientPrompts;
}

const queuedMessage = 'Queued from the editor';

export function provideRunActions(request: RunActionRequest): CodeAction[] {
  const state = request.snapshot?.workspace;
  if (state?.kind !== 'linked') return [];
  const workspace = state.workspace;
  const workspaceId = workspace.id;
  const actions: CodeAction[] = [];
  const queue = (title: string, kind: string, extra: { isDestroy?: boolean; refreshOnly?: boolean; targetAddrs?: string[]; replaceAddrs?: string[] } = {}) =>
    actions.push({ title, kind, command: serverCommand(title, 'queuePlan', { hostname: workspace.hostname, workspaceId, message: queuedMessage, ...extra }) });

  // Only what this token may queue there (a reader's token was offered every plan, and each failed vaguely).
  if (workspace.permissions?.canQueueRun !== false) {
    queue(`Queue a plan in ${workspace.name}`, runActionKinds.queuePlan);
    const address = addressAt(request);
    if (address) {
      queue(`Queue a plan targeting ${address.address}`, runActionKinds.targetedPlan, { targetAddrs: [address.address] });
      // -replace takes resource instances only, not modules or data sources.
      if (address.kind === 'resource') queue(`Queue a plan replacing ${address.address}`, runActionKinds.replacePlan, { replaceAddrs: [address.address] });
    }
    if (workspace.permissions?.canQueueDestroy !== false) queue(`Queue a destroy plan in ${workspace.name}`, runActionKinds.destroyPlan, { isDestroy: true });
    queue(`Queue a refresh-only plan in ${workspace.name}`, runActionKinds.refreshOnlyPlan, { refreshOnly: true });
    const planLocal = `Plan local changes in ${workspace.name} (speculative)`;
    actions.push({ title: planLocal, kind: runActionKinds.planLocalChanges, command: serverCommand(planLocal, 'planLocalChanges', { hostname: workspace.hostname, folderUri: fileUriOf(request.model.folder), workspaceId, message: 'Local changes from the editor' }) });
  }

  for (const run of distinctRuns(request.snapshot?.runs)) actions.push(...runStateActions(run, workspace.hostname));
  const changeRequest = changeRequestAction(request, workspace);
  if (changeRequest) actions.push(changeRequest);
  return actions;
}

/** Apply / discard / cancel / force-cancel, exactly as the run's `actions` flags allow. */
function runStateActions(run: SnapshotRun, hostname: string): CodeAction[] {
  const status = runStatusLabel(run.status).toLowerCase();
  // A run is known to people by its message; the id only when it has none.
  const name = run.message ? `"${shorten(run.message)}"` : run.id;
  const actions: CodeAction[] = [];
  const add = (title: string, kind: string, verb: 'applyRun' | 'discardRun' | 'cancelRun' | 'forceCancelRun') => actions.push({ title, kind, command: serverCommand(title, verb, { hostname, runId: run.id }) });
  if (run.actions.isConfirmable) add(`Apply run ${name} (${status})`, runActionKinds.applyRun, 'applyRun');
  if (run.actions.isDiscardable) add(`Discard run ${name} (${status})`, runActionKinds.discardRun, 'discardRun');
  if (run.actions.isCancelable) add(`Cancel run ${name} (${status})`, runActionKinds.cancelRun, 'cancelRun');
  if (run.actions.isForceCancelable) add(`Force-cancel run ${name} (${status})`, runActionKinds.forceCancelRun, 'forceCancelRun');
  return actions;
}

export function distinctRuns(runs: WorkspaceSnapshot['runs']): SnapshotRun[] {
  const seen = new Map<string, SnapshotRun>();
  for (const run of [runs?.awaitingConfirmation, runs?.active, runs?.current]) if (run && !seen.has(run.id)) seen.set(run.id, run);
  return [...seen.values()];
}

/** The innermost resource / data / module block at the start of the selection. */
function addressAt(request: RunActionRequest): TargetAddress | undefined {
  const contribution = request.model.index.get(request.file);
  if (contribution?.kind !== 'terraform') return undefined;
  let best: TargetAddress | undefined;
  for (const address of contribution.addresses) {
    if (!rangeContains(address.range, request.range.start)) continue;
    if (!best || comparePositions(address.range.start, best.range.start) > 0) best = address;
  }
  return best;
}

const todoComment = /(?:#|\/\/|\/\*)\s*TODO\b[:\s-]*(.*?)\s*(?:\*\/)?\s*$/;
const maxSubjectLength = 120;

/**
 * Subject: the text of a `TODO` comment on the cursor's line (words the user wrote as a note), or, for a selection,
 * what the user types when asked (prompts.changeRequestSubject). The selected text itself is never sent: it may be a
 * secret (a .tfvars value), so the message names the file and lines only.
 */
function changeRequestAction(request: RunActionRequest, workspace: LinkedWorkspace): CodeAction | undefined {
  const lines = request.lines ?? LineIndex.of(request.text);
  const start = lines.offsetAt(request.range.start);
  const end = lines.offsetAt(request.range.end);
  const selected = request.text.slice(start, end).trim();
  const location = `${path.basename(request.file)}:${request.range.start.line + 1}`;
  let subject: string | undefined;
  let message: string;
  if (selected) {
    if (!request.prompts?.changeRequestSubject) return undefined;
    const last = request.range.end.line + (request.range.end.character === 0 && request.range.end.line > request.range.start.line ? 0 : 1);
    const lineSpan = last > request.range.start.line + 1 ? `${location}-${last}` : location;
    const title = `Open a change request in ${workspace.name} about ${lineSpan}…`;
    return {
      title,
      kind: runActionKinds.createChangeRequest,
      // No subject: the client asks its user for one.
      command: serverCommand(title, 'createChangeRequest', { hostname: workspace.hostname, organization: workspace.organization, workspaceId: workspace.id, message: `About \`${lineSpan}\`.` }),
    };
  } else {
    const lineText = request.text.slice(lines.offsetAt({ line: request.range.start.line, character: 0 }), lines.offsetAt({ line: request.range.start.line, character: Number.MAX_SAFE_INTEGER }));
    subject = todoComment.exec(lineText)?.[1]?.trim() || undefined;
    message = `TODO in \`${location}\`.`;
  }
  if (!subject) return undefined;
  if (subject.length > maxSubjectLength) subject = `${subject.slice(0, maxSubjectLength - 1)}…`;
  const title = `Open a change request in ${workspace.name}: ${subject}`;
  return {
    title,
    kind: runActionKinds.createChangeRequest,
    command: serverCommand(title, 'createChangeRequest', { hostname: workspace.hostname, organization: workspace.organization, workspaceId: workspace.id, subject, message }),
  };
}

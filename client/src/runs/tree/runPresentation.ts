// How a run looks in the Runs view: icon and colour per state, label, description, operation, and the contextValue
// that decides its menu. No `vscode` import, so it is unit-tested with node:test. The service owns the list of
// states: an unknown one gets a neutral icon and its humanised label, never an error.
import type { RunSummary, WorkspacePermissionsSummary } from '../../../../server/src/protocol';

export type StateGroup = 'pending' | 'running' | 'attention' | 'success' | 'error' | 'stopped' | 'unknown';

export interface StatePresentation {
  group: StateGroup;
  /** A codicon id (ThemeIcon). */
  icon: string;
  /** A theme colour id (ThemeColor), or none. */
  color?: string;
}

const groups: Record<Exclude<StateGroup, 'unknown'>, readonly string[]> = {
  pending: ['pending'],
  running: [
    'fetching', 'fetching_completed', 'pre_plan_running', 'pre_plan_completed', 'queuing', 'plan_queued', 'planning',
    'cost_estimating', 'policy_checking', 'confirmed', 'post_plan_running', 'post_plan_completed', 'apply_queued',
    'queuing_apply', 'applying', 'pre_apply_running', 'pre_apply_completed', 'post_apply_running', 'post_apply_completed',
    'assessing',
  ],
  // Paused until a person decides: confirm, discard, override or apply a saved plan.
  attention: [
    'planned', 'cost_estimated', 'policy_checked', 'policy_override', 'planned_and_saved', 'pre_plan_awaiting_decision',
    'post_plan_awaiting_decision', 'tf_policy_checked', 'tf_policy_override', 'policy_soft_failed',
  ],
  success: ['applied', 'planned_and_finished', 'assessed'],
  error: ['errored'],
  stopped: ['discarded', 'canceled', 'force_canceled'],
};

const looks: Record<StateGroup, Omit<StatePresentation, 'group'>> = {
  pending: { icon: 'clock', color: 'charts.foreground' },
  running: { icon: 'sync~spin', color: 'charts.blue' },
  attention: { icon: 'warning', color: 'charts.yellow' },
  success: { icon: 'pass', color: 'charts.green' },
  error: { icon: 'error', color: 'charts.red' },
  stopped: { icon: 'circle-slash', color: 'disabledForeground' },
  unknown: { icon: 'circle-outline' },
};

export function stateGroup(status: string): StateGroup {
  for (const [group, members] of Object.entries(groups)) if (members.includes(status)) return group as StateGroup;
  return 'unknown';
}

export function statePresentation(status: string): StatePresentation {
  const group = stateGroup(status);
  // A soft-failed policy on a plan-only run is final, but still worth a look: orange, not yellow.
  if (status === 'policy_soft_failed') return { group, icon: 'warning', color: 'charts.orange' };
  return { group, ...looks[group] };
}

/** Every status the view knows (for tests and the filter picker). */
export const knownStatuses: readonly string[] = Object.values(groups).flat();

/** Statuses a run reaches only after its plan finished (a discarded or errored run may or may not have one). */
const afterPlan = new Set([
  'planned', 'planned_and_finished', 'planned_and_saved', 'cost_estimating', 'cost_estimated', 'policy_checking',
  'policy_checked', 'policy_override', 'policy_soft_failed', 'post_plan_running', 'post_plan_completed',
  'post_plan_awaiting_decision', 'confirmed', 'apply_queued', 'queuing_apply', 'applying', 'applied',
  'pre_apply_running', 'pre_apply_completed', 'post_apply_running', 'post_apply_completed',
]);

/** Whether the run has a finished plan to show (its status says so, or the service stamped `planned-at`). */
export function planFinished(run: RunSummary): boolean {
  return afterPlan.has(run.status) || Boolean(run.statusTimestamps?.['planned-at']);
}

/** The run's operation in words (the spec's run operations). */
export function operationLabel(run: RunSummary): string {
  if (run.isDestroy) return 'destroy';
  if (run.refreshOnly) return 'refresh only';
  if (run.savePlan) return 'save plan';
  if (run.planOnly) return 'plan only';
  if (run.allowEmptyApply) return 'empty apply';
  // Applied once planned, with no one asked: "plan and apply" would promise a confirmation that never comes.
  if (run.autoApply) return 'plan and auto-apply';
  return 'plan and apply';
}

/** Whether a policy check ran: before that (pending, queued, running) or without it (canceled, errored) its counts are zeros, not results. */
export function policyCheckFinished(status: string): boolean {
  return ['passed', 'soft_failed', 'hard_failed', 'overridden'].includes(status);
}

export function sourceLabel(source: string | undefined): string | undefined {
  if (!source) return undefined;
  const known: Record<string, string> = { 'svc-ui': 'web UI', 'svc-api': 'API', 'svc-configuration-version': 'version control', 'tfe-api': 'API', 'tfe-ui': 'web UI', 'tfe-configuration-version': 'version control', terraform: 'Terraform CLI', 'terraform+cloud': 'Terraform CLI' };
  return known[source] ?? source;
}

/** The first line of the message, or the run id when it has none. */
export function runLabel(run: RunSummary): string {
  const first = (run.message ?? '').split(/\r?\n/)[0]?.trim();
  return first ? first : `Run ${run.id}`;
}

/** "3 min ago", "2 h ago", "5 d ago"; "just now" under a minute; the date beyond 30 days. */
export function relativeTime(iso: string | undefined, now: number): string | undefined {
  if (!iso) return undefined;
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return undefined;
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.floor(hours / 24);
  if (days <= 30) return `${days} d ago`;
  return new Date(then).toISOString().slice(0, 10);
}

/** Milliseconds until force-cancel opens; undefined when it is not waiting for a cool-off. */
export function forceCancelWaitMs(run: RunSummary, now: number): number | undefined {
  if (!run.forceCancelAvailableAt) return undefined;
  const at = Date.parse(run.forceCancelAvailableAt);
  return Number.isNaN(at) || at <= now ? undefined : at - now;
}

/** "1:05" for a countdown. */
export function countdown(ms: number): string {
  const total = Math.ceil(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** Status · time · operation (· force cancel countdown). */
export function runDescription(run: RunSummary, now: number): string {
  const parts = [run.statusLabel, relativeTime(run.createdAt, now), operationLabel(run)];
  const wait = forceCancelWaitMs(run, now);
  if (wait !== undefined && run.permissions?.canForceCancel !== false) parts.push(`force cancel in ${countdown(wait)}`);
  return parts.filter(Boolean).join(' · ');
}

/**
 * The tokens of a run item's contextValue (`hcpRun apply discard …`, matched by package.json's menus): exactly
 * what the run's actions flags and the caller's permissions allow, so no menu entry can only fail.
 */
export function runContextValue(run: RunSummary, workspacePermissions: WorkspacePermissionsSummary | undefined, now: number): string {
  const may = run.permissions ?? {};
  const tokens = ['hcpRun'];
  if (run.actions.isConfirmable && may.canApply !== false && workspacePermissions?.canQueueApply !== false) tokens.push('apply');
  if (run.actions.isDiscardable && may.canDiscard !== false) tokens.push('discard');
  if (run.actions.isCancelable && may.canCancel !== false) tokens.push('cancel');
  if (may.canForceCancel !== false) {
    const waiting = forceCancelWaitMs(run, now) !== undefined;
    if (run.actions.isForceCancelable && !waiting) tokens.push('forceCancel');
    else if (waiting) tokens.push('forceCancelWaiting');
  }
  const forceExecutable = run.isForceExecutable ?? run.status === 'pending';
  if (forceExecutable && may.canForceExecute !== false) tokens.push('forceExecute');
  tokens.push('details', 'browser');
  if (run.planId || run.applyId) tokens.push('log');
  if (planFinished(run)) tokens.push('planned');
  return tokens.join(' ');
}

/** Markdown for a run's tooltip; every text from the service is escaped (no links or HTML from a run message). */
export function runTooltipMarkdown(run: RunSummary, now: number): string {
  const lines = [`**${escapeMarkdown(run.statusLabel)}** · ${operationLabel(run)}`, ''];
  if (run.message) lines.push(escapeMarkdown(run.message).replace(/\r?\n/g, '  \n'), '');
  const facts: Array<[string, string | undefined]> = [
    ['Run', run.id],
    ['Queued', run.createdAt ? `${relativeTime(run.createdAt, now)} (${run.createdAt})` : undefined],
    ['By', run.createdBy],
    ['Source', sourceLabel(run.source)],
    ['In this state since', run.statusChangedAt],
    ['Targets', run.targetAddrs?.length ? run.targetAddrs.join(', ') : undefined],
    ['Replace', run.replaceAddrs?.length ? run.replaceAddrs.join(', ') : undefined],
    ['Resources', resourceCounts(run)],
  ];
  for (const [name, value] of facts) if (value) lines.push(`${name}: ${escapeMarkdown(value)}  `);
  const wait = forceCancelWaitMs(run, now);
  if (wait !== undefined) lines.push(`Force cancel possible in ${countdown(wait)}  `);
  return lines.join('\n');
}

/** "+2 ~1 -0" when the plan counted resources. */
export function resourceCounts(counts: { resourceAdditions?: number; resourceChanges?: number; resourceDestructions?: number }): string | undefined {
  const { resourceAdditions: add, resourceChanges: change, resourceDestructions: destroy } = counts;
  if (add === undefined && change === undefined && destroy === undefined) return undefined;
  return `+${add ?? 0} ~${change ?? 0} -${destroy ?? 0}`;
}

export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}

// The run watcher's reads, each with what it does with the answer: a workspace's own run list, the lookup of a
// workspace's organization, a page of an organization's runs, and the poll of one run. Apart from the scheduling
// (runWatcher.ts), which decides when each goes: here is what a read finds and reports, and which runs it starts or
// stops following. The spacing after each is watchBackoff.ts; a failure's pause, watchFailures.ts.
import type { Run, ServiceClient } from '../api';
import { allRunOperations, isFinalRunStatus, RateLimitedError, relatedId, ServiceError } from '../api';
import { mayHaveSkippedRuns, newestCreatedAt, newOrganizationWatch, runsByWatchedWorkspace } from './organizationRunReads';
import type { OrganizationWatch } from './organizationRunReads';
import type { WatchContext } from './runWatcherOptions';
import { backOffOrganization, backOffPoll, intervalAfterError, listIntervalAfter, pollAtBaseCadence } from './watchBackoff';
import { isCovered, markAnswered, recordRuns, startsView } from './watchedHost';
import type { HostState, RunWatch, WorkspaceWatch } from './watchedHost';
import { failed, lookupRetryMs, organizationRefused, unanswered } from './watchFailures';

export async function listWorkspace(watcher: WatchContext, client: ServiceClient, host: HostState, workspaceId: string, watch: WorkspaceWatch): Promise<void> {
  const { timers, settings } = watcher;
  try {
    // Every operation, so plan-only runs (plan local changes) are seen too; only the newest page matters here.
    const page = await client.runs.listForWorkspace(workspaceId, { pageSize: watcher.options.listPageSize ?? 10, operations: [...allRunOperations] });
    if (host.workspaces.get(workspaceId) !== watch) return;
    const firstForView = startsView(watch);
    const recorded = recordRuns(host, page.items, watch.listedOnce || firstForView);
    // A view starts from this list: every run of it is pushed.
    const changed = firstForView ? page.items : recorded;
    if (changed.some((run) => isFinalRunStatus(run.attributes.status))) queueMoved(watcher, host, workspaceId);
    for (const run of page.items) {
      if (!isFinalRunStatus(run.attributes.status) && !host.runs.has(run.id)) {
        host.runs.set(run.id, { workspaceId, nextPollAt: timers.now() + settings.runInterval.baseMs, intervalMs: settings.runInterval.baseMs });
      }
    }
    markAnswered(host);
    watch.listedOnce = true;
    watch.intervalMs = listIntervalAfter(watch.intervalMs, changed.length > 0, settings);
    // Covered: the organization's list finds what is new here from now on.
    watch.nextListAt = isCovered(host, watch, timers.now()) ? Infinity : timers.now() + watch.intervalMs;
    report(watcher, host, workspaceId, page.items, changed, true);
  } catch (error) {
    if (unanswered(watcher, host, error)) watch.nextListAt = timers.now(); // again as soon as the host's pause ends
    else {
      watch.intervalMs = intervalAfterError(watch.intervalMs, settings.listInterval);
      watch.nextListAt = timers.now() + watch.intervalMs;
    }
    failed(watcher, host, error, `list the runs of workspace ${workspaceId}`, 'run-list');
  }
}

/** Reads which organization a workspace belongs to, so that its organization's list can cover it. */
export async function lookUpOrganization(watcher: WatchContext, client: ServiceClient, host: HostState, workspaceId: string, watch: WorkspaceWatch): Promise<void> {
  try {
    const { workspace } = await client.workspaces.getById(workspaceId);
    markAnswered(host);
    if (host.workspaces.get(workspaceId) !== watch || watch.organization !== undefined) return;
    learnOrganization(host, watch, relatedId(workspace, 'organization') ?? null);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) {
      // Not readable with this token: its own list says why (the list reports it); nothing to look up again.
      watch.organization = null;
      return;
    }
    watch.lookupAt = unanswered(watcher, host, error) ? watcher.timers.now() : watcher.timers.now() + lookupRetryMs;
    // Only a 429 is acted on (the host pauses). Nothing is reported: the workspace keeps its own list meanwhile,
    // which reports the same problem once per list, where 200 lookups failing at once would say it 200 times.
    if (error instanceof RateLimitedError) failed(watcher, host, error, `look up the organization of workspace ${workspaceId}`);
  }
}

function learnOrganization(host: HostState, watch: WorkspaceWatch, organization: string | null): void {
  watch.organization = organization;
  if (organization !== null && !host.organizations.has(organization)) host.organizations.set(organization, newOrganizationWatch());
}

/**
 * One page of the organization's runs, newest first: a run of a watched workspace that the watcher does not know is
 * new (once a read has seen that workspace's runs), reported and followed exactly as a workspace's list would.
 */
export async function readOrganization(watcher: WatchContext, client: ServiceClient, host: HostState, name: string, organization: OrganizationWatch): Promise<void> {
  const { timers, settings } = watcher;
  const startSeq = host.watchSeq;
  organization.lastReadAt = timers.now();
  try {
    // Every operation (the organization list leaves none out by default, but the workspace list does: be explicit).
    // No filter[workspace_names]: 200 names make a long URL, and a renamed workspace would silently drop out.
    const page = await client.runs.listForOrganization(name, { pageSize: settings.organizationPageSize, operations: [...allRunOperations] });
    markAnswered(host);
    organization.errorMs = 0;
    const now = timers.now();
    const grouped = runsByWatchedWorkspace(page.items, (workspaceId) => host.workspaces.has(workspaceId));
    for (const [workspaceId, runs] of grouped) {
      const watch = host.workspaces.get(workspaceId)!;
      // The page shows the workspace is in this organization: no lookup needed.
      if (watch.organization === undefined) learnOrganization(host, watch, name);
      if (watch.organization !== name) continue;
      const firstForView = startsView(watch);
      const recorded = recordRuns(host, runs, watch.seq <= organization.baselineSeq);
      const changed = firstForView ? runs : recorded;
      if (changed.some((run) => isFinalRunStatus(run.attributes.status))) queueMoved(watcher, host, workspaceId);
      for (const run of runs) {
        const followed = host.runs.get(run.id);
        if (isFinalRunStatus(run.attributes.status)) host.runs.delete(run.id); // ended: nothing left to poll
        else if (!followed) host.runs.set(run.id, { workspaceId, nextPollAt: now + settings.runInterval.baseMs, intervalMs: settings.runInterval.baseMs });
        // Moved while its poll was backed off (confirmed elsewhere): the service works on it again, read it at
        // the working cadence so the next phase's end is seen within a second.
        else if (changed.includes(run)) pollAtBaseCadence(followed, settings, now + settings.runInterval.baseMs);
      }
      // Not a complete list of the workspace (the page is the organization's): `fromList` false.
      report(watcher, host, workspaceId, runs, changed, false);
    }
    if (mayHaveSkippedRuns(page.items, settings.organizationPageSize, organization.newestCreatedAt)) {
      // More runs than a page were queued since the last read (over 2,000 a minute): list each workspace instead.
      for (const watch of host.workspaces.values()) if (watch.organization === name) watch.nextListAt = Math.min(watch.nextListAt, now);
    }
    organization.newestCreatedAt = newestCreatedAt(page.items) ?? organization.newestCreatedAt;
    organization.baselineSeq = startSeq;
  } catch (error) {
    const now = timers.now();
    if (organizationRefused(watcher, host, name, organization, error, now)) return;
    if (!unanswered(watcher, host, error)) backOffOrganization(organization, settings, now);
    failed(watcher, host, error, `list the runs of organization ${name}`, 'run-list');
  }
}

/**
 * A run of the workspace just ended, so the run waiting behind it starts now: a pending run backs off while it
 * waits its turn, and without this its start (and its plan's end) would be seen up to a backed-off poll late.
 */
function queueMoved(watcher: WatchContext, host: HostState, workspaceId: string): void {
  const now = watcher.timers.now();
  for (const watch of host.runs.values()) {
    if (watch.workspaceId !== workspaceId) continue;
    pollAtBaseCadence(watch, watcher.settings, now);
  }
}

export async function pollRun(watcher: WatchContext, client: ServiceClient, host: HostState, runId: string, watch: RunWatch): Promise<void> {
  const { timers, settings } = watcher;
  try {
    const { run } = await client.runs.get(runId);
    markAnswered(host);
    const changed = recordRuns(host, [run], true);
    const workspaceId = relatedId(run, 'workspace') ?? watch.workspaceId;
    if (isFinalRunStatus(run.attributes.status)) {
      host.runs.delete(runId);
      if (changed.length > 0) queueMoved(watcher, host, workspaceId);
    } else {
      backOffPoll(watch, run, changed.length > 0, settings);
      watch.nextPollAt = timers.now() + watch.intervalMs;
    }
    report(watcher, host, workspaceId, [run], changed, false);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) {
      host.runs.delete(runId); // gone, or no longer visible to this token
      return;
    }
    if (unanswered(watcher, host, error)) watch.nextPollAt = timers.now();
    else {
      watch.intervalMs = intervalAfterError(watch.intervalMs, settings.runInterval);
      watch.nextPollAt = timers.now() + watch.intervalMs;
    }
    failed(watcher, host, error, `read run ${runId}`);
  }
}

/** Hands what a read found to onRuns, counting each run it reports as changed (RunWatcher.changesReported). */
function report(watcher: WatchContext, host: HostState, workspaceId: string, runs: Run[], changed: Run[], fromList: boolean): void {
  for (const run of changed) host.changeCounts.set(run.id, (host.changeCounts.get(run.id) ?? 0) + 1);
  watcher.options.onRuns(host.hostname, workspaceId, runs, changed, fromList);
}

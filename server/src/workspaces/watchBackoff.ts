// How far the run watcher pushes a workspace's list, a run's poll or an organization's read after each answer: back
// to the base cadence on news, longer while nothing moves, at most twice the cap after an error. Apart from the reads
// (runWatcherReads.ts) so that the rules read on their own, next to each other, rather than at the end of each read;
// the numbers they keep to are runWatcher.ts's header.
import type { Run } from '../api';
import type { OrganizationWatch } from './organizationRunReads';
import type { WatchSettings } from './runWatcherOptions';
import { awaitsSomeone } from './watchedHost';
import type { RunWatch } from './watchedHost';

/** Unchanged polls of a working run at the base cadence before it backs off like a waiting one. */
const maxQuietPollsAtBase = 30;

/** A workspace's list after one that answered: at the base again if it showed a change, else doubling to the cap. */
export function listIntervalAfter(intervalMs: number, changed: boolean, settings: WatchSettings): number {
  return changed ? settings.listInterval.baseMs : Math.min(intervalMs * 2, settings.listInterval.maxMs);
}

/** A list or poll after one that failed (the service answered, with an error): doubling to twice the cap. */
export function intervalAfterError(intervalMs: number, interval: { maxMs: number }): number {
  return Math.min(intervalMs * 2, interval.maxMs * 2);
}

/**
 * A run not final, just polled. While the service works on the run, each phase's end is news (a plan's end puts it
 * on the code): keep the base cadence. Only a run waiting for a person or for its turn backs off.
 * A working run that stays unchanged for long (a stuck phase) backs off too.
 */
export function backOffPoll(watch: RunWatch, run: Run, changed: boolean, settings: WatchSettings): void {
  watch.quietPolls = changed ? 0 : (watch.quietPolls ?? 0) + 1;
  const waiting = awaitsSomeone(run) || watch.quietPolls > maxQuietPollsAtBase;
  watch.intervalMs = changed || !waiting ? settings.runInterval.baseMs : Math.min(Math.round(watch.intervalMs * 1.5), settings.runInterval.maxMs);
}

/** The run moves again (the service works on it): polled at the base cadence from now, the next poll by `by`. */
export function pollAtBaseCadence(watch: RunWatch, settings: WatchSettings, by: number): void {
  watch.intervalMs = settings.runInterval.baseMs;
  watch.quietPolls = 0;
  watch.nextPollAt = Math.min(watch.nextPollAt, by);
}

/** An organization read that failed (not an outage, not a refusal): the next waits from the spacing, doubling to the list cap. */
export function backOffOrganization(organization: OrganizationWatch, settings: WatchSettings, now: number): void {
  organization.errorMs = Math.min(organization.errorMs > 0 ? organization.errorMs * 2 : settings.organizationReadSpacingMs, settings.listInterval.maxMs);
  organization.retryAt = now + organization.errorMs;
}

// Each target of issue #13 against what a run measured: met or missed, and for a miss the server's profile over the
// phase it measures, from a re-run of its scenario under the profiler (benchSession.ts profiling).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { only, profileRoot, profileWindows, profiling, round } from './benchSession';
import { summarizeProfile } from './profile';
import type { ProfileLine, ProfileSummary } from './profile';

export interface Target {
  name: string;
  value: number | undefined;
  limit: number;
  unit: string;
  why?: string;
  /** The scenario's server profile, cut to the phase the target measures: printed when the target is missed. */
  profile?: { label: string; phase: string };
}

/** The scenario's .cpuprofile (written by the server as it exits), summarised over one phase. */
function phaseProfile(label: string, phase: string): ProfileSummary | undefined {
  const directory = path.join(profileRoot, label);
  const windows = profileWindows[label]?.[phase];
  if (!windows || !existsSync(directory)) return undefined;
  // Each thread writes its own profile (CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile); the indexing worker's has a
  // thread id above 0. The server's own thread is the one the targets measure.
  const file = readdirSync(directory).find((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name));
  return file ? summarizeProfile(path.join(directory, file), 6, windows) : undefined;
}

/**
 * `rerun(label)` runs that scenario again under the profiler: once per scenario with a missed target that names a
 * phase, after every figure was measured.
 */
export async function check(all: Target[], rerun: (label: string) => Promise<void>) {
  // With --only, the targets of the scenarios left out are not listed as "not measured".
  const targets = only ? all.filter((target) => target.value !== undefined) : all;
  const isMet = (target: Target) => target.value !== undefined && !Number.isNaN(target.value) && target.value <= target.limit;
  const profiled = new Set<string>();
  for (const target of targets) {
    if (!profiling || isMet(target) || target.value === undefined || !target.profile || profiled.has(target.profile.label)) continue;
    const { label } = target.profile;
    profiled.add(label);
    console.log(`\n${label}: a target missed, running it again under the profiler`);
    // The re-run marks its own windows; any it does not reach must not cut its profile with the clean run's.
    delete profileWindows[label];
    try {
      await rerun(label);
    } catch (error) {
      // The figures stand without the profile: a re-run that fails costs the explanation, not the results.
      console.log(`${label}: the profiled re-run failed (${error instanceof Error ? error.message : String(error)}); its misses are printed without a profile`);
      delete profileWindows[label];
    }
  }
  const rows = targets.map((target) => {
    const met = isMet(target);
    const profile = !met && target.value !== undefined && target.profile ? phaseProfile(target.profile.label, target.profile.phase) : undefined;
    return { ...target, value: round(target.value), met, ...(profile ? { profile: { ...target.profile, ...profile } } : {}) };
  });
  console.log('\ntargets');
  for (const row of rows) {
    const shown = row.value === undefined ? 'not measured' : `${row.value} ${row.unit}`;
    console.log(`  ${row.met ? 'met   ' : 'MISSED'}  ${row.name}: ${shown} (target ≤ ${row.limit} ${row.unit})${!row.met && row.why ? ` — ${row.why}` : ''}`);
    if ('profile' in row && row.profile && 'self' in row.profile) {
      const line = (entries: ProfileLine[]) => entries.map((entry) => `${entry.name} ${entry.ms} ms (${entry.share}%)`).join('; ');
      // With the windows' length beside the time sampled: a server busy for a small part of them was not what kept
      // the answer waiting (the slowest keystrokes are mostly moments the server did not run at all).
      console.log(`          profile of the server during ${row.profile.phase}, in the profiled re-run (busy ${row.profile.totalMs} ms of ${row.profile.windowMs} ms):`);
      console.log(`            own time: ${line(row.profile.self)}`);
      console.log(`            server functions, with what they call: ${line(row.profile.inclusive)}`);
    }
  }
  return rows;
}

/** The run watcher's targets. Both run lists count together: the service gives them one 30/min budget. */
export function watcherTargets(watch: Record<string, any> | undefined): Target[] {
  return [
    { name: 'run watcher: 429s (200 workspaces)', value: watch?.rateLimited, limit: 0, unit: '' },
    { name: 'run watcher: run lists in the busiest minute (workspace + organization lists)', value: watch?.runLists.perMinuteMax, limit: 30, unit: '/min' },
    { name: 'run watcher: requests in the busiest second', value: watch?.requests.perSecondMax, limit: 30, unit: '/s' },
    {
      name: 'run watcher: freshness p99 (state change → runsChanged)',
      value: watch?.freshnessMs.all.p99,
      limit: 3000,
      unit: 'ms',
      why: 'new runs are found by the organization\'s run list, read every 2.5 s (24 of the 30 lists a minute); a miss means a read or the server answered late (see the profile of newRun and followedRun)',
    },
    { name: 'run watcher: freshness p99 of runs already followed', value: watch?.freshnessMs.followedRun.p99, limit: 3000, unit: 'ms' },
  ];
}

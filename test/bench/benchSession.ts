// What every bench scenario shares: the command line (--quick, --only, --no-profile), the windows the server's
// profile is cut to per phase, and the timing helpers, with the no-op floor every latency is compared to.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { summary } from './client';
import type { BenchServer } from './client';
import type { ProfileWindow } from './profile';

export const quick = process.argv.includes('--quick');
/** `--only=one-mb,workspace`: just those scenarios (one-mb, four-mb, four-mb-analysed, workspace, workspace-variables, watcher, sizes, activation). */
export const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
export const wanted = (scenario: string) => !only || only.includes(scenario);
/**
 * Figures are measured without a profiler: V8's sampling profiler (1 ms interval, every thread) made the 1,000-file
 * index ~12% slower (median 1.18 s against 1.05 s over 6 runs in turn) and interrupts the thread whose milliseconds
 * a keystroke's p99 counts. A scenario with a missed target is then run again under the profiler, and the miss is
 * printed with where the server's CPU went in that run's same phase. `--no-profile` skips the re-runs.
 */
export const profiling = !process.argv.includes('--no-profile');
export const profileRoot = path.resolve('test-results', 'bench-profiles');
/** Whether the scenario now running is a profiled re-run (see profiling). */
let profilingRun = false;
/** Runs `scenario` again under the profiler, for the profile of a missed target's phase; its figures are not kept. */
export async function underProfiler(scenario: () => Promise<unknown>): Promise<void> {
  profilingRun = true;
  try {
    await scenario();
  } finally {
    profilingRun = false;
  }
}
/** Per scenario and phase, the windows (µs) its profile is cut to: one per phase, or the slowest samples' own. */
export const profileWindows: Record<string, Record<string, ProfileWindow[]>> = {};
/** The server's profile and this process read the same monotonic clock (µs): windows cut the profile to a phase. */
export const clockUs = () => Number(process.hrtime.bigint() / 1000n);
export const profileArgs = (label: string) => (profilingRun ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileRoot, label)}`] : []);
export function markWindow(label: string, phase: string, from: number) {
  (profileWindows[label] ??= {})[phase] = [{ fromUs: from, toUs: clockUs() }];
}
export const typingIntervalMs = 100; // 10 characters a second
/** The profile phase of the slowest 5% of keystrokes, each from its change to its last answer. */
export const slowestKeystrokes = 'the slowest keystrokes';
/** The profile phase of the slowest 2% of the completion requests sent through the pauses of a broken file. */
export const slowestPauseRequests = 'the slowest requests through the pauses';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const round = (value: number | undefined) => (value === undefined || Number.isNaN(value) ? undefined : Math.round(value * 100) / 100);

export async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await work();
  return [performance.now() - started, value];
}

export async function floor(server: BenchServer, count = 100): Promise<{ p50: number; p99: number; n: number }> {
  for (let i = 0; i < 10; i++) await server.noop(); // warm up
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push(await server.noop());
  return summary(samples);
}

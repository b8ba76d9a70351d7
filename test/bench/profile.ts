// Reads a V8 CPU profile (`node --cpu-prof`) and names where the time went: the functions with the most self time,
// and, for the server's own code, the most inclusive time. The bench prints these next to a missed target so the
// miss comes with its cause, not a guess.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileLine {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  /** CPU time sampled in the window (idle left out). */
  totalMs: number;
  /** How long the windows lasted in all (undefined without windows): the time the server could have been busy. */
  windowMs?: number;
  /** Functions by their own time (garbage collection is listed as such). */
  self: ProfileLine[];
  /** The server's own functions by time spent in them and what they call. */
  inclusive: ProfileLine[];
}

export interface ProfileWindow {
  fromUs: number;
  toUs: number;
}

/** `window`: only samples taken between these times (µs, the profile's clock) count, when given; several windows add up. */
export function summarizeProfile(file: string, top = 8, window?: ProfileWindow | readonly ProfileWindow[]): ProfileSummary {
  const windows = window === undefined ? undefined : 'fromUs' in window ? [window] : window;
  const inWindow = (time: number) => !windows || windows.some((each) => time >= each.fromUs && time <= each.toUs);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const selfUs = new Map<string, number>();
  const inclusiveUs = new Map<string, number>();
  let time = profile.startTime;
  let totalUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i];
    if (!inWindow(time)) continue;
    const delta = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(profile.samples[i]);
    // Idle is the server waiting for the next message: not a cause of anything.
    if (!node || node.callFrame.functionName === '(idle)') continue;
    totalUs += delta;
    const key = frameName(node);
    selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!;
      if (!isOwnCode(frame)) continue;
      const name = frameName(frame);
      if (seen.has(name)) continue; // recursion counts once
      seen.add(name);
      inclusiveUs.set(name, (inclusiveUs.get(name) ?? 0) + delta);
    }
  }
  const lines = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, share: totalUs ? Math.round((us / totalUs) * 1000) / 10 : 0 }));
  const windowUs = windows?.reduce((sum, each) => sum + (each.toUs - each.fromUs), 0);
  return { totalMs: Math.round(totalUs / 1000), ...(windowUs !== undefined ? { windowMs: Math.round(windowUs / 1000) } : {}), self: lines(selfUs), inclusive: lines(inclusiveUs) };
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.split('/').pop() ?? '';
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
}

/** Frames of the bundled server that are not a dependency (the bundle keeps one file; dependencies are named by esbuild's comments only, so judge by name). */
function isOwnCode(node: ProfileNode): boolean {
  return node.callFrame.url.endsWith('/server.js') && node.callFrame.functionName !== '';
}

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { summarizeProfile } from './profile';

// A profile of three frames: (root) → handle (server.js) → parse (server.js), and idle. Samples every 1 ms.
function writeProfile(samples: number[]): string {
  const profile = {
    nodes: [
      { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2, 4] },
      { id: 2, callFrame: { functionName: 'handle', url: 'file:///x/dist/server.js', lineNumber: 9 }, children: [3] },
      { id: 3, callFrame: { functionName: 'parse', url: 'file:///x/dist/server.js', lineNumber: 19 } },
      { id: 4, callFrame: { functionName: '(idle)', url: '', lineNumber: -1 } },
    ],
    samples,
    timeDeltas: samples.map(() => 1000),
    startTime: 0,
    endTime: samples.length * 1000,
  };
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'profile-')), 'x.cpuprofile');
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

test('a profile names the functions that took the time, its own and with what they call, without idle', () => {
  // 3 ms in parse, 1 ms in handle itself, 4 ms idle.
  const summary = summarizeProfile(writeProfile([3, 3, 3, 2, 4, 4, 4, 4, 4]));
  assert.equal(summary.totalMs, 4);
  assert.deepEqual(summary.self.map((line) => [line.name, line.ms]), [['parse server.js:20', 3], ['handle server.js:10', 1]]);
  assert.deepEqual(summary.inclusive.map((line) => [line.name, line.ms, line.share]), [['handle server.js:10', 4, 100], ['parse server.js:20', 3, 75]]);
});

test('a window keeps only the samples taken in it', () => {
  // Samples at 1..9 ms: the window 4.5–7.5 ms holds samples 5, 6 and 7 (handle, idle, idle).
  const summary = summarizeProfile(writeProfile([3, 3, 3, 3, 2, 4, 4, 3, 3]), 8, { fromUs: 4500, toUs: 7500 });
  assert.deepEqual(summary.self.map((line) => [line.name, line.ms]), [['handle server.js:10', 1]]);
});

test('several windows add up, and say how long they lasted (how busy the server was in them)', () => {
  // Samples at 1..9 ms: windows 0.5–2.5 ms (parse, parse) and 5.5–8.5 ms (idle, idle, handle).
  const summary = summarizeProfile(writeProfile([3, 3, 3, 3, 2, 4, 4, 2, 3]), 8, [
    { fromUs: 500, toUs: 2500 },
    { fromUs: 5500, toUs: 8500 },
  ]);
  assert.equal(summary.windowMs, 5);
  assert.equal(summary.totalMs, 3);
  assert.deepEqual(summary.self.map((line) => [line.name, line.ms]), [['parse server.js:20', 2], ['handle server.js:10', 1]]);
});

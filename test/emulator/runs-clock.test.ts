import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Clock } from '../../emulator/src/clock';

describe('emulator clock (manual mode)', () => {
  test('time stands still until advanced', async () => {
    const clock = new Clock({ mode: 'manual', start: new Date('2026-01-01T00:00:00Z') });
    assert.equal(clock.now().toISOString(), '2026-01-01T00:00:00.000Z');
    await clock.advance(1500);
    assert.equal(clock.now().toISOString(), '2026-01-01T00:00:01.500Z');
  });

  test('due tasks run in due order, each seeing its own due time, including tasks scheduled on the way', async () => {
    const clock = new Clock({ mode: 'manual', start: new Date(0) });
    const seen: string[] = [];
    clock.schedule(300, () => {
      seen.push(`b@${clock.nowMs()}`);
    });
    clock.schedule(100, () => {
      seen.push(`a@${clock.nowMs()}`);
      clock.schedule(50, () => {
        seen.push(`a2@${clock.nowMs()}`);
      });
    });
    clock.schedule(900, () => {
      seen.push('late');
    });
    await clock.advance(500);
    assert.deepEqual(seen, ['a@100', 'a2@150', 'b@300']);
    assert.equal(clock.nowMs(), 500);
    assert.equal(clock.pendingTasks(), 1);
  });

  test('equal due times run in scheduling order and canceled tasks never run', async () => {
    const clock = new Clock({ mode: 'manual', start: new Date(0) });
    const seen: number[] = [];
    clock.schedule(10, () => void seen.push(1));
    const second = clock.schedule(10, () => void seen.push(2));
    clock.schedule(10, () => void seen.push(3));
    second.cancel();
    await clock.advance(10);
    assert.deepEqual(seen, [1, 3]);
  });

  test('a failing task is reported and does not stop later tasks', async () => {
    const clock = new Clock({ mode: 'manual', start: new Date(0) });
    const failures: unknown[] = [];
    clock.onTaskFailure((error) => failures.push(error));
    const seen: number[] = [];
    clock.schedule(1, () => {
      throw new Error('boom');
    });
    clock.schedule(2, () => void seen.push(2));
    await clock.advance(5);
    assert.equal(failures.length, 1);
    assert.deepEqual(seen, [2]);
  });

  test('speed scales run-progress delays only', () => {
    const clock = new Clock({ mode: 'manual', speed: 4 });
    assert.equal(clock.progressDelay(4000), 1000);
  });

  test('bad speed and negative advance are refused with a clear message', async () => {
    assert.throws(() => new Clock({ speed: 0 }), /positive number/);
    const clock = new Clock({ mode: 'manual' });
    await assert.rejects(clock.advance(-1), /non-negative/);
  });
});

describe('emulator clock (real mode)', () => {
  test('a scheduled task fires on its own, and advance moves now() forward', async () => {
    const clock = new Clock({ mode: 'real' });
    const before = clock.nowMs();
    await clock.advance(60_000);
    assert.ok(clock.nowMs() - before >= 60_000);
    // Waits on the task's own completion, not on a sleep. The clock's timer is unref'd by design, so a ref'd
    // guard keeps the process alive meanwhile and bounds the wait.
    let guard: NodeJS.Timeout | undefined;
    const fired = await Promise.race([
      new Promise<boolean>((resolve) => clock.schedule(5, () => resolve(true))),
      new Promise<boolean>((resolve) => (guard = setTimeout(() => resolve(false), 5000))),
    ]);
    clearTimeout(guard);
    clock.dispose();
    assert.equal(fired, true, 'the scheduled task did not fire within 5 s');
  });
});

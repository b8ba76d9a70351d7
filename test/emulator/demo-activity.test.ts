import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Clock } from '../../emulator/src/clock';
import { createRunEngine } from '../../emulator/src/runs';
import { applySeed } from '../../emulator/src/seeds';
import { demoPushIntervalMs, scheduleDemoActivity } from '../../emulator/src/seeds/demoActivity';
import { resolveTokens } from '../../emulator/src/seeds/tokens';
import { Store } from '../../emulator/src/store/store';

describe('demo activity', () => {
  test('a push to staging-api queues a VCS-triggered run every interval, which then progresses on its own', async () => {
    const clock = new Clock({ mode: 'manual', speed: 1 });
    const store = new Store(clock, 'hosted');
    const engine = createRunEngine(store, clock);
    applySeed(store, 'demo', resolveTokens());
    const staging = store.workspaceByName('acme-demo', 'staging-api')!;
    const pushed = () => [...engine.records.runs.values()].filter((run) => run.workspaceId === staging.id && run.source === 'svc-configuration-version');
    assert.equal(pushed().length, 0);

    scheduleDemoActivity(store, clock);
    await clock.advance(demoPushIntervalMs);
    assert.equal(pushed().length, 1);
    const first = pushed()[0]!;
    assert.match(first.message, /^Release 2\.\d+\.0$/);

    await clock.advance(demoPushIntervalMs);
    assert.equal(pushed().length, 2);
    assert.notEqual(engine.run(first.id)!.status, 'pending', 'the first pushed run moved on by itself');
    clock.dispose();
  });
});

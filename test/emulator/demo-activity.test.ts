import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Clock } from '../../emulator/src/clock';
import { createRunEngine } from '../../emulator/src/runs';
import { applySeed } from '../../emulator/src/seeds';
import { demoPushIntervalMs, scheduleDemoActivity } from '../../emulator/src/seeds/demoActivity';
import { resolveTokens } from '../../emulator/src/seeds/tokens';
import { Store } from '../../emulator/src/store/store';
import { loadTerraformParser } from '../../server/src/model';

describe('demo activity', () => {
  test('a push to staging-api uploads the release and queues a VCS-triggered run every interval, which updates the API and applies on its own', async () => {
    const clock = new Clock({ mode: 'manual', speed: 1 });
    const store = new Store(clock, 'hosted');
    store.terraformParser = await loadTerraformParser();
    const engine = createRunEngine(store, clock);
    applySeed(store, 'demo', resolveTokens());
    const staging = store.workspaceByName('acme-demo', 'staging-api')!;
    const seeded = new Set(engine.records.runs.keys());
    const pushed = () => [...engine.records.runs.values()].filter((run) => run.workspaceId === staging.id && run.source === 'svc-configuration-version' && !seeded.has(run.id));
    assert.equal(pushed().length, 0);

    scheduleDemoActivity(store, clock);
    await clock.advance(demoPushIntervalMs);
    assert.equal(pushed().length, 1);
    const first = pushed()[0]!;
    assert.match(first.message, /^Release 2\.\d+\.0$/);
    // The push is a configuration version of its own, with the release in its code: the run has something to do.
    const release = first.message.replace('Release ', '');
    const version = store.configurationVersion(first.configurationVersionId)!;
    assert.equal(staging.latestConfigurationVersionId, version.id);
    assert.match(version.files.get('main.tf')!.toString('utf8'), new RegExp(`release  = "${release.replace(/\./g, '\\.')}"`));

    await clock.advance(demoPushIntervalMs);
    assert.equal(pushed().length, 2);
    assert.equal(engine.run(first.id)!.status, 'applied', 'the first pushed run applied by itself');
    assert.deepEqual(engine.run(first.id)!.changes.map((c) => `${c.action} ${c.address}`), ['update terraform_data.api']);
    clock.dispose();
  });
});

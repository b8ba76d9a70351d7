// A cancel during a create_before_destroy replacement: the new object was created first, so when the interrupt
// lands while the old one is being destroyed, the state keeps the replacement (not no instance at all, which is
// what a destroy-first replacement leaves when interrupted between its halves).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addConfigurationVersion } from '../../emulator/src/seeds/builders';
import { startHarness, type Harness, resetToPlainWorkspace } from './runs-harness';

const replaced = (trigger: number) => `resource "terraform_data" "r" {\n  triggers_replace = ${trigger}\n  lifecycle { create_before_destroy = true }\n}\n`;

describe('an interrupted create_before_destroy replacement', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ followConfiguration: true });
    resetToPlainWorkspace(h);
    h.workspace.structuredRunOutputEnabled = true;
  });
  after(() => h.close());

  const readLog = async (id: string) => {
    const url = (await h.api('GET', `/api/v2/runs/${id}/apply`)).body.data.attributes['log-read-url'];
    return (await fetch(url)).text();
  };
  const advanceUntil = async (what: string, done: () => Promise<boolean>, stepMs: number) => {
    for (let step = 0; step < 1200; step++) {
      if (await done()) return;
      await h.clock.advance(stepMs);
    }
    assert.fail(`never: ${what}`);
  };
  const applied = async (trigger: number) => {
    addConfigurationVersion(h.store, h.workspace, `replace-${trigger}`, { files: new Map([['main.tf', Buffer.from(replaced(trigger))]]) });
    const id = await h.createRun({ 'auto-apply': true });
    await advanceUntil('the run applies', async () => (await h.run(id)).attributes.status === 'applying', 500);
    return id;
  };
  const stateIds = () => (h.store.stateVersions.current(h.workspace.id)?.state?.resources ?? []).flatMap((resource) => (resource.instances ?? []).map((instance) => (instance as { attributes: { id: string } }).attributes.id));

  test('cancelled while the old object is being destroyed, the state holds the replacement', async () => {
    const first = await applied(1);
    await advanceUntil('the first apply ends', async () => (await h.run(first)).attributes.status === 'applied', 500);
    const [oldId] = stateIds();
    const id = await applied(2);
    await advanceUntil('the old object is being destroyed', async () => {
      const log = await readLog(id);
      return log.includes('terraform_data.r: Destroying...') && !log.includes('terraform_data.r: Destruction complete');
    }, 50);
    assert.match(await readLog(id), /terraform_data\.r: Creation complete/, 'the replacement was created first');
    assert.equal((await h.api('POST', `/api/v2/runs/${id}/actions/cancel`)).status, 202);
    await advanceUntil('the run stops', async () => (await h.run(id)).attributes.status === 'canceled', 500);
    const ids = stateIds();
    assert.equal(ids.length, 1, 'one instance: the replacement');
    assert.notEqual(ids[0], oldId);
  });
});

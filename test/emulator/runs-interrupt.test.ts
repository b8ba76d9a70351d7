// A cancel during an apply interrupts Terraform where it is: the apply log stops at the interrupt (no "Apply
// complete!"), the operations in flight finish, and the state saved holds exactly the instances the log says were
// created. A force-cancel kills the process: only what was done before the interrupt is saved.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addConfigurationVersion } from '../../emulator/src/seeds/builders';
import { startHarness, type Harness, resetToPlainWorkspace } from './runs-harness';

const ETX = '\u0003';
const tenInstances = 'resource "terraform_data" "many" {\n  count = 10\n  input = "v${count.index}"\n}\n';

describe('an apply interrupted by a cancel', () => {
  let h: Harness;
  let version = 0;
  before(async () => {
    h = await startHarness({ followConfiguration: true });
  });
  after(() => h.close());
  beforeEach(() => {
    resetToPlainWorkspace(h);
    h.store.stateVersions.deleteWorkspace(h.workspace.id);
    h.workspace.structuredRunOutputEnabled = true;
    addConfigurationVersion(h.store, h.workspace, `ten-${++version}`, { files: new Map([['main.tf', Buffer.from(tenInstances)]]) });
  });

  const readLog = async (id: string) => {
    const url = (await h.api('GET', `/api/v2/runs/${id}/apply`)).body.data.attributes['log-read-url'];
    return (await fetch(url)).text();
  };
  const created = (log: string) => (log.match(/terraform_data\.many\[\d+\]: Creation complete/g) ?? []).length;
  const started = (log: string) => (log.match(/terraform_data\.many\[\d+\]: Creating\.\.\./g) ?? []).length;
  const savedInstances = () => (h.store.stateVersions.current(h.workspace.id)?.state?.resources ?? []).flatMap((resource) => resource.instances ?? []).length;
  /** Advances the manual clock `stepMs` at a time until `done` holds (at most 1200 steps). */
  const advanceUntil = async (what: string, done: () => Promise<boolean>, stepMs = 500) => {
    for (let step = 0; step < 1200; step++) {
      if (await done()) return;
      await h.clock.advance(stepMs);
    }
    assert.fail(`never: ${what}`);
  };
  /**
   * An auto-applied run with ten instances to create, cancelled when its log shows three or more created and one
   * being created (the log grows a line at a time in 100 ms steps, so that moment comes).
   */
  const interruptedMidway = async () => {
    const id = await h.createRun({ 'auto-apply': true });
    await advanceUntil('the run applies', async () => (await h.run(id)).attributes.status === 'applying');
    await advanceUntil('an instance is being created after three were', async () => {
      const log = await readLog(id);
      return created(log) >= 3 && started(log) === created(log) + 1;
    }, 100);
    const before = await readLog(id);
    assert.ok(created(before) < 10, 'still applying');
    assert.equal((await h.api('POST', `/api/v2/runs/${id}/actions/cancel`)).status, 202);
    return { id, before };
  };

  test('the log stops at the interrupt, the operation in flight finishes, the state holds what the log created', async () => {
    const { id, before } = await interruptedMidway();
    const interrupted = await readLog(id);
    assert.ok(interrupted.startsWith(before.replace(ETX, '')), 'what was written stays');
    assert.match(interrupted, /Interrupt received\./);
    assert.match(interrupted, /Stopping operation\.\.\./);
    assert.deepEqual([started(interrupted), created(interrupted)], [started(before), created(before)], 'nothing more is started or created at the interrupt');
    await advanceUntil('the run is canceled', async () => (await h.run(id)).attributes.status === 'canceled');
    const final = await readLog(id);
    assert.ok(final.endsWith(ETX));
    assert.doesNotMatch(final, /Apply complete!/);
    assert.match(final, /execution halted/);
    assert.equal(started(final), started(before), 'no operation starts after the interrupt');
    assert.equal(created(final), created(before) + 1, 'the one in flight completed before the process stopped');
    assert.equal(savedInstances(), created(final), 'the state holds exactly what the log says was created');
    const apply = (await h.api('GET', `/api/v2/runs/${id}/apply`)).body.data.attributes;
    assert.deepEqual([apply.status, apply['resource-additions']], ['canceled', created(final)]);
  });

  test('a force-cancel kills the process: no more lines, and only what was done before the interrupt is saved', async () => {
    const { id, before } = await interruptedMidway();
    await advanceUntil('force-cancel is allowed', async () => (await h.run(id)).attributes.actions['is-force-cancelable'] === true);
    assert.equal((await h.api('POST', `/api/v2/runs/${id}/actions/force-cancel`)).status, 202);
    const final = await readLog(id);
    assert.doesNotMatch(final, /Apply complete!|execution halted/);
    assert.equal(created(final), created(before), 'the operation in flight never reports back');
    assert.equal(savedInstances(), created(before));
  });

  test('with structured run output off, the plain text log stops the same way', async () => {
    h.workspace.structuredRunOutputEnabled = false;
    const { id, before } = await interruptedMidway();
    await advanceUntil('the run is canceled', async () => (await h.run(id)).attributes.status === 'canceled');
    const final = await readLog(id);
    assert.ok(final.startsWith(before.replace(ETX, '')));
    assert.match(final, /\nInterrupt received\.\nPlease wait for Terraform to exit or data loss may occur\.\nGracefully shutting down\.\.\.\n/);
    assert.match(final, /│ Error: execution halted/);
    assert.doesNotMatch(final, /Apply complete!/);
    assert.equal(created(final), created(before) + 1);
    assert.equal(savedInstances(), created(final));
  });
});

// Contract: plans, applies, cost estimates, and their logs read from log-read-url without the token, in byte
// ranges, until the ETX that ends a finished phase. Runs are built by the tests on the empty seed.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError, relatedId } from '../../server/src/api/index';
import type { ServiceClient } from '../../server/src/api/index';
import { useEmulator } from './support/harness';
import { inStatus, pausedForConfirmation, plannableWorkspace, runUntil } from './support/scenario';

async function readWholeLog(client: ServiceClient, url: string, limit: number): Promise<{ text: string; reads: number }> {
  let offset = 0;
  let text = '';
  for (let reads = 1; reads <= 10_000; reads++) {
    const chunk = await client.phases.readLog(url, { offset, limit });
    text += chunk.text;
    offset = chunk.nextOffset;
    if (chunk.complete) return { text, reads };
  }
  throw new Error('the log never completed');
}

describe('contract: plans, applies, cost estimates and logs', () => {
  const harness = useEmulator({ seed: 'empty' });

  async function appliedRun(client: ServiceClient) {
    const paused = await runUntil(harness, client, await plannableWorkspace(client), 'confirmation', pausedForConfirmation);
    await client.runs.apply(paused.id);
    let applied = paused;
    await harness.advanceUntil('the apply to finish', async () => {
      applied = (await client.runs.get(paused.id)).run;
      return applied.attributes.status === 'applied';
    });
    return applied;
  }

  test('a finished plan, its apply and its cost estimate read back with their statuses and counts', async () => {
    const client = harness.client();
    const run = await appliedRun(client);
    const plan = await client.phases.getPlan(relatedId(run, 'plan')!);
    assert.equal(plan.attributes.status, 'finished');
    assert.equal(plan.attributes['has-changes'], true);
    assert.equal(typeof plan.attributes['resource-additions'], 'number');
    const apply = await client.phases.getApply(relatedId(run, 'apply')!);
    assert.equal(apply.attributes.status, 'finished');
    const estimate = await client.phases.getCostEstimate(relatedId(run, 'cost-estimate')!);
    assert.equal(estimate.attributes.status, 'finished');
    assert.match(estimate.attributes['proposed-monthly-cost'] ?? '', /^\d+(\.\d+)?$/);
  });

  test('a finished log read in small chunks equals one read of all of it, without the token', async () => {
    const client = harness.client();
    const plan = await client.phases.getPlan(relatedId(await appliedRun(client), 'plan')!);
    const url = plan.attributes['log-read-url']!;
    const whole = await client.phases.readLog(url);
    assert.equal(whole.complete, true);
    assert.match(whole.text, /Plan:/);
    assert.ok(!whole.text.includes('\x02') && !whole.text.includes('\x03'));
    const chunked = await readWholeLog(client, url, 64);
    assert.equal(chunked.text, whole.text);
    assert.ok(chunked.reads > 2);
    const logReads = harness.requests().filter((entry) => entry.path.includes('offset='));
    assert.ok(logReads.every((entry) => entry.tokenRole === undefined));
  });

  test('a live plan log grows as the run plans and completes when the plan finishes', async () => {
    const client = harness.client();
    const run = await runUntil(harness, client, await plannableWorkspace(client), 'planning', inStatus('planning'));
    const plan = await client.phases.getPlan(relatedId(run, 'plan')!);
    const url = plan.attributes['log-read-url']!;
    let offset = 0;
    let text = '';
    let partialReads = 0;
    await harness.advanceUntil('the log to complete', async () => {
      const chunk = await client.phases.readLog(url, { offset });
      text += chunk.text;
      offset = chunk.nextOffset;
      if (!chunk.complete) partialReads++;
      return chunk.complete;
    }, 500, 100);
    assert.ok(partialReads >= 1, 'the log was read while still growing');
    assert.ok(text.length > 0);
  });

  test('followLog yields the growing log until the plan finishes, waiting on the (emulator) clock between empty reads', async () => {
    const client = harness.client();
    const run = await client.runs.create({ workspaceId: await plannableWorkspace(client), message: 'follow' });
    const plan = await client.phases.getPlan(relatedId(run, 'plan')!);
    const pieces: string[] = [];
    for await (const text of client.phases.followLog(plan.attributes['log-read-url']!)) pieces.push(text);
    assert.ok(pieces.length >= 2, `the log arrived in ${pieces.length} piece(s)`);
    const whole = await client.phases.readLog(plan.attributes['log-read-url']!);
    assert.equal(pieces.join(''), whole.text);
    assert.equal(whole.complete, true);
  });

  test('an unknown plan is a 404', async () => {
    const error = await harness.client().phases.getPlan('plan-doesnotexist000').catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 404);
  });
});

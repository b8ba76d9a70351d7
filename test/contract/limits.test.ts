// Contract: the overall limit of 30 requests per second per token — the client's limiter keeps under it and
// follows the service's X-RateLimit-* headers, so a burst never earns a 429; other tokens have their own budget.
// (Concurrent bursts are covered by the limiter's unit test on a stepped clock: here the emulator's clock jumps
// while requests are still in flight, which real time never does.)
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useEmulator } from './support/harness';

describe('contract: request rate limits', () => {
  const harness = useEmulator();

  test('a burst of 61 reads by one token goes through without a 429, spread over at least two seconds', async () => {
    const client = harness.client('owner');
    const started = harness.emulator().control.now().getTime();
    for (let i = 0; i < 61; i++) await client.account.details();
    const reads = harness.requests().filter((entry) => entry.path === '/api/v2/account/details');
    assert.equal(reads.length, 61);
    assert.ok(reads.every((entry) => entry.status === 200), `statuses: ${[...new Set(reads.map((entry) => entry.status))].join(',')}`);
    assert.ok(harness.emulator().control.now().getTime() - started >= 2_000);
  });

  test('two tokens each have their own budget: 30 each in the same second', async () => {
    const owner = harness.client('owner');
    const reader = harness.client('reader');
    const started = harness.emulator().control.now().getTime();
    for (let i = 0; i < 30; i++) {
      await owner.account.details();
      await reader.account.details();
    }
    assert.equal(harness.emulator().control.now().getTime(), started, 'nobody had to wait');
    assert.ok(harness.requests().every((entry) => entry.status === 200));
  });
});

// Hostile or careless input gets the status the service gives, never a 500, and leaves the emulator serving:
// bodies past the limit with or without a token (413, the connection closed since its body was never read).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startCore, type CoreHarness } from './core-harness';

describe('hostile input', () => {
  let h: CoreHarness;
  before(async () => {
    h = await startCore({ seed: 'empty' });
  });
  after(() => h.close());

  for (const withToken of [false, true]) {
    test(`a body over 20 MiB ${withToken ? 'with' : 'without'} a token is 413 and says the limit; the next request is served`, async () => {
      const response = await fetch(`${h.emulator.url}/api/v2/runs`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/vnd.api+json', ...(withToken ? { Authorization: `Bearer ${h.emulator.tokens.owner}` } : {}) },
        body: Buffer.alloc(21 * 1024 * 1024, 32),
      });
      assert.equal(response.status, 413);
      assert.equal(response.headers.get('connection'), 'close');
      assert.match(((await response.json()) as { errors: Array<{ detail: string }> }).errors[0]!.detail, /limited to 20971520 bytes/);
      assert.equal((await h.api('GET', '/organizations/acme-demo/workspaces')).status, 200);
    });
  }
});

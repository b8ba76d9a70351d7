import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Clock } from '../../emulator/src/clock';
import { createRunEngine } from '../../emulator/src/runs';
import { applySeed } from '../../emulator/src/seeds';
import { resolveTokens } from '../../emulator/src/seeds/tokens';
import { Store } from '../../emulator/src/store/store';
import { startCore, type CoreHarness } from './core-harness';

describe('seeds', () => {
  test('seeded ids and records are the same on every start (derived from names)', () => {
    const build = () => {
      const clock = new Clock({ mode: 'manual', start: new Date('2026-06-01T12:00:00Z') });
      const store = new Store(clock, 'hosted');
      createRunEngine(store, clock);
      applySeed(store, 'demo', resolveTokens());
      clock.dispose();
      return store;
    };
    const first = build();
    const second = build();
    assert.deepEqual([...first.workspaces.keys()], [...second.workspaces.keys()]);
    assert.deepEqual([...first.variables.keys()], [...second.variables.keys()]);
    assert.deepEqual([...first.changeRequests.keys()], [...second.changeRequests.keys()]);
  });

  test('resolveTokens keeps given tokens, fills the rest, and rejects bad ones', () => {
    const tokens = resolveTokens({ reader: 'readerToken123.atlasv1.x' });
    assert.equal(tokens.reader, 'readerToken123.atlasv1.x');
    assert.match(tokens.owner, /^[0-9A-Za-z]{14}\.atlasv1\.[0-9A-Za-z]{64}$/);
    assert.equal(new Set(Object.values(tokens)).size, 5);
    assert.throws(() => resolveTokens({ owner: 'has space' }), /without whitespace/);
    assert.throws(() => resolveTokens({ owner: 'same', member: 'same' }), /different token/);
    assert.throws(() => resolveTokens({ admin: 'x' } as never), /Unknown token roles: admin/);
  });
});

describe('the demo seed over HTTP', () => {
  let h: CoreHarness;
  before(async () => {
    h = await startCore();
  });
  after(() => h.close());
  beforeEach(() => h.emulator.control.advance(1_000));

  test('acme-demo is on the top paid edition and acme-free on the free one', async () => {
    const demo = await h.api('GET', '/organizations/acme-demo');
    assert.equal(demo.body.data.attributes['plan-identifier'], 'premium');
    const free = await h.api('GET', '/organizations/acme-free');
    assert.equal(free.body.data.attributes['plan-identifier'], 'free');
    assert.equal(h.emulator.organization, 'acme-demo');
  });

  test('sandbox is locked by a user with a reason; demo-app by its run awaiting confirmation', async () => {
    const sandbox = (await h.api('GET', '/organizations/acme-demo/workspaces/sandbox')).body.data;
    assert.equal(sandbox.attributes.locked, true);
    assert.match(sandbox.attributes['locked-reason'], /Maintenance/);
    assert.equal(sandbox.relationships['locked-by'].data.type, 'users');
    const demoApp = (await h.api('GET', '/organizations/acme-demo/workspaces/demo-app')).body.data;
    assert.equal(demoApp.relationships['locked-by'].data.type, 'runs');
  });

  test('reset brings back the seeded organization token after it was replaced', async () => {
    const seeded = h.emulator.tokens.organization;
    const replaced = await h.api('POST', '/organizations/acme-demo/authentication-token', { body: { data: { type: 'authentication-token' } } });
    assert.equal(replaced.status, 201);
    assert.equal((await h.api('GET', '/account/details', { token: seeded })).status, 401);
    await h.emulator.control.reset();
    assert.equal((await h.api('GET', '/account/details', { token: seeded })).status, 200);
    assert.equal((await h.api('GET', '/account/details', { token: replaced.body.data.attributes.token })).status, 401);
  });

  test('reset restores a deleted variable and an archived change request', async () => {
    const vars = (await h.api('GET', '/vars?filter[workspace][name]=demo-app&filter[organization][name]=acme-demo')).body.data;
    const legacy = vars.find((v: any) => v.attributes.key === 'legacy_flag');
    assert.equal((await h.api('DELETE', `/vars/${legacy.id}`)).status, 204);
    const open = (await h.api('GET', '/workspaces/demo-app/change-requests?archive=false')).body.data[0];
    assert.equal((await h.api('POST', `/workspaces/change-requests/${open.id}`)).status, 200);
    await h.emulator.control.reset();
    assert.equal((await h.api('GET', `/vars/${legacy.id}`)).status, 200);
    assert.equal((await h.api('GET', `/workspaces/change-requests/${open.id}`)).body.data.attributes.archived, false);
  });
});

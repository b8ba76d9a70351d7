import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { loadTerraformParser } from '../../server/src/model';
import { readLiteral } from '../../server/src/model/hclLiterals';
import { Clock } from '../../emulator/src/clock';
import { applyRun, createRunEngine, overridePolicy, type RunEngine, type RunRecord } from '../../emulator/src/runs';
import { isConfirmable } from '../../emulator/src/runs/actions';
import { checkConfiguration } from '../../emulator/src/runs/configurationCheck';
import { applySeed } from '../../emulator/src/seeds';
import { demoAppFiles, demoAppFixtureFiles, demoAppPipelineFiles } from '../../emulator/src/seeds/configurations';
import { seedId } from '../../emulator/src/seeds/ids';
import { resolveTokens } from '../../emulator/src/seeds/tokens';
import { Store } from '../../emulator/src/store/store';
import { isFinal } from '../../emulator/src/runs/statuses';
import { startCore, type CoreHarness } from './core-harness';

const fixture = path.join(import.meta.dirname ?? __dirname, '..', 'fixtures', 'demo-app');

/** The demo seed on a manual clock, with the HCL parser, so plans follow the seeded configurations. */
async function seededStore(): Promise<{ store: Store; engine: RunEngine; clock: Clock }> {
  const clock = new Clock({ mode: 'manual', start: new Date('2026-06-01T12:00:00Z') });
  const store = new Store(clock, 'hosted');
  store.terraformParser = await loadTerraformParser();
  const engine = createRunEngine(store, clock);
  applySeed(store, 'demo', resolveTokens());
  return { store, engine, clock };
}

function runsOf(engine: RunEngine, store: Store, workspace: string, organization = 'acme-demo'): RunRecord[] {
  const id = store.workspaceByName(organization, workspace)!.id;
  return [...engine.records.runs.values()].filter((run) => run.workspaceId === id).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

function byMessage(engine: RunEngine, store: Store, workspace: string, message: string): RunRecord {
  const run = runsOf(engine, store, workspace).find((r) => r.message === message);
  assert.ok(run, `no run "${message}" on ${workspace}`);
  return run;
}

const changesOf = (run: RunRecord) => run.changes.map((change) => `${change.action} ${change.address}`).sort();

/** What the workspace's current state version holds, by address. */
function stateAddresses(store: Store, workspace: string, organization = 'acme-demo'): string[] {
  const current = store.stateVersions.current(store.workspaceByName(organization, workspace)!.id);
  if (!current?.state) return [];
  const resources = (current.state.resources ?? []) as Array<{ type: string; name: string; instances: Array<{ index_key?: string | number }> }>;
  return resources
    .flatMap((r) => r.instances.map((i) => `${r.type}.${r.name}${i.index_key === undefined ? '' : `[${JSON.stringify(i.index_key)}]`}`))
    .sort();
}

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

describe('the demo seed\'s configurations and runs', () => {
  test('demo-app plans from the .tf files of test/fixtures/demo-app/, byte for byte, plus only the pipeline\'s files', () => {
    const fixtureTf = readdirSync(fixture).filter((file) => file.endsWith('.tf')).sort();
    assert.deepEqual(Object.keys(demoAppFixtureFiles).sort(), fixtureTf, 'the seed and the fixture have different .tf files');
    for (const file of fixtureTf) assert.equal(demoAppFixtureFiles[file], readFileSync(path.join(fixture, file), 'utf8'), `${file} differs from the fixture's`);
    assert.deepEqual(Object.keys(demoAppFiles).sort(), [...fixtureTf, ...Object.keys(demoAppPipelineFiles)].sort());
    for (const extra of Object.keys(demoAppPipelineFiles)) assert.ok(!readdirSync(fixture).includes(extra), `${extra} would shadow a fixture file`);
  });

  test('every seeded configuration version has files, and each workspace\'s latest passes the plan check with its variables', async () => {
    const { store, clock } = await seededStore();
    try {
      for (const version of store.configurationVersions.values()) assert.ok(version.files.size > 0, `configuration version ${version.id} has no files`);
      for (const workspace of store.workspaces.values()) {
        const version = store.configurationVersion(workspace.latestConfigurationVersionId!);
        const findings = checkConfiguration({ parser: store.terraformParser, files: version!.files, workspaceVariables: store.variablesOf(workspace.id), runVariables: [] });
        const errors = findings.filter((f) => f.severity === 'error').map((f) => `${f.summary}: ${f.detail}`);
        assert.deepEqual(errors, [], `${workspace.name} would not plan`);
      }
      const demoApp = store.workspaceByName('acme-demo', 'demo-app')!;
      assert.equal(store.configurationVersion(demoApp.latestConfigurationVersionId!)?.ingress?.commitMessage, 'Add monitoring toggle and service map');
    } finally {
      clock.dispose();
    }
  });

  test('demo-app\'s services value is valid HCL of the declared shape: a map of objects with a number port and a bool public', async () => {
    const { store, clock } = await seededStore();
    try {
      const services = store.variablesOf(store.workspaceByName('acme-demo', 'demo-app')!.id).find((v) => v.key === 'services')!;
      assert.equal(services.hcl, true);
      const tree = store.terraformParser!.parse(`value = ${services.value}\n`);
      try {
        assert.equal(tree.rootNode.hasError, false, `services does not parse: ${services.value}`);
        const value = readLiteral(tree.rootNode.descendantsOfType('expression')[0]!)?.value as Record<string, { port: unknown; public: unknown }>;
        assert.ok(value && Object.keys(value).length > 0, 'services is not a map');
        for (const [name, service] of Object.entries(value)) {
          assert.equal(typeof service.port, 'number', `${name}.port`);
          assert.equal(typeof service.public, 'boolean', `${name}.public`);
        }
      } finally {
        tree.delete();
      }
    } finally {
      clock.dispose();
    }
  });

  test('the histories add up: each plan changes only what differs from what was applied before it', async () => {
    const { store, engine, clock } = await seededStore();
    try {
      const applied = byMessage(engine, store, 'demo-app', 'Add monitoring toggle');
      assert.equal(applied.status, 'applied');
      assert.ok(changesOf(applied).every((c) => c.startsWith('create ')), changesOf(applied).join(', '));
      assert.ok(changesOf(applied).includes('create terraform_data.app_instance[0]'));
      assert.ok(changesOf(applied).includes('create null_resource.service_registration["web"]'), 'one registration per service');
      assert.deepEqual(stateAddresses(store, 'demo-app'), applied.changes.map((c) => c.address).sort(), 'the state holds what was applied');
      for (const message of ['Try a bigger instance type', 'Speculative plan from a pull request', 'Scale to three instances']) {
        assert.deepEqual(changesOf(byMessage(engine, store, 'demo-app', message)), ['create terraform_data.app_instance[1]', 'create terraform_data.app_instance[2]'], message);
      }
      const scale = byMessage(engine, store, 'demo-app', 'Scale to three instances');
      assert.equal(store.workspaceByName('acme-demo', 'demo-app')!.lockedBy?.id, scale.id);
      assert.ok(isConfirmable(engine, scale), `Scale to three instances is ${scale.status}`);

      const staging = runsOf(engine, store, 'staging-api');
      assert.deepEqual(staging.map((r) => r.message), ['Release 2.3.0', 'Release 2.4.0-rc1']);
      assert.notEqual(staging[0]!.configurationVersionId, staging[1]!.configurationVersionId, 'each release is a configuration version of its own');
      await clock.advance(10 * 60_000);
      assert.equal(staging[1]!.status, 'applied');
      assert.deepEqual(changesOf(staging[1]!), ['update terraform_data.api']);

      const network = runsOf(engine, store, 'prod-network');
      assert.equal(network[0]!.status, 'applied');
      assert.equal(network[1]!.status, 'policy_override');
      assert.deepEqual(changesOf(network[1]!), ['create terraform_data.peering["vpc-0b2"]']);

      const sandbox = store.workspaceByName('acme-demo', 'sandbox')!;
      const [setUp, drift] = runsOf(engine, store, 'sandbox');
      assert.equal(setUp!.status, 'applied');
      assert.deepEqual(stateAddresses(store, 'sandbox'), ['random_pet.playground', 'terraform_data.experiment']);
      assert.equal(drift!.status, 'planned_and_finished');
      assert.deepEqual(drift!.changes, [], 'the sandbox has nothing to change');
      assert.equal(sandbox.lockedBy?.type, 'users');

      assert.equal(runsOf(engine, store, 'legacy-batch')[0]!.status, 'errored');
      assert.equal(runsOf(engine, store, 'hello-world', 'acme-free')[0]!.status, 'applied');
    } finally {
      clock.dispose();
    }
  });

  test('no run waits for ever: only runs awaiting a user hold a workspace, and acting on them lets every run finish', async () => {
    const { store, engine, clock } = await seededStore();
    try {
      await clock.advance(24 * 3600_000);
      const awaitsUser = (run: RunRecord) => isConfirmable(engine, run) || run.status === 'policy_override';
      for (const workspace of store.workspaces.values()) {
        if (workspace.lockedBy?.type !== 'runs') continue;
        const holder = engine.run(workspace.lockedBy.id)!;
        assert.ok(awaitsUser(holder), `${workspace.name} is held by "${holder.message}" (${holder.status}), which awaits nobody`);
      }
      const stuck = () => [...engine.records.runs.values()].filter((run) => !isFinal(run.status) && !run.planOnly);
      for (const run of stuck()) {
        const holder = engine.holderOf(run.workspaceId);
        assert.ok(awaitsUser(run) || (holder && awaitsUser(holder)), `"${run.message}" is ${run.status} behind ${holder ? `"${holder.message}" (${holder.status})` : 'nothing'}`);
      }
      // The owner acts on every run that awaits them until nothing is left in progress.
      const owner = seedId('user', 'olivia-owner');
      for (let round = 0; round < 10 && stuck().length > 0; round++) {
        for (const run of stuck()) {
          if (run.status === 'policy_override') overridePolicy(engine, run, { userId: owner });
          else if (isConfirmable(engine, run)) applyRun(engine, run, { userId: owner });
        }
        await clock.advance(3600_000);
      }
      assert.deepEqual(stuck().map((run) => `${run.message}: ${run.status}`), []);
      for (const workspace of store.workspaces.values()) assert.notEqual(workspace.lockedBy?.type, 'runs', `${workspace.name} is still held`);
      assert.deepEqual(changesOf(byMessage(engine, store, 'demo-app', 'Tag everything with the cost centre')), [], 'after the scale-up, nothing is left to change');
    } finally {
      clock.dispose();
    }
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

// Runs on configurations that refactor (moved and removed blocks, and the moves Terraform implies where `count` was
// added or removed) and use lifecycle, through the run engine with the manual clock: the plain-text plan log
// (workspaces without structured run output) draws them as Terraform's text does, the plan JSON lists them by
// address with `previous_address`, an argument the emulator cannot evaluate keeps its record when its instance
// moves, so the plan after the move's apply has no changes, and the apply keeps the moved objects (their ids).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { stateInstances } from '../../emulator/src/runs/stateInstances';
import { configurationSteps } from './configurationRuns';
import { startHarness, type Harness } from './runs-harness';

describe('configuration-driven runs: moved, removed and lifecycle', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ followConfiguration: true });
  });
  after(() => h.close());

  const steps = configurationSteps(() => h);
  const { upload, plan, apply, planJson, pushState } = steps;
  // The plain-text log is what these tests read: no structured run output.
  const workspaceWith = (name: string, text: string) => steps.workspaceWith(name, text, { structuredRunOutputEnabled: false });
  const planLog = (run: string) => steps.log(run, 'plan');
  /** The plan JSON's resource changes, in its order: address, previous_address, actions, action_reason. */
  const resourceChanges = async (run: string) =>
    ((await planJson(run)).resource_changes as any[]).map((c) => [c.address, c.previous_address, c.change.actions.join(','), c.action_reason]);
  /** The ids the workspace's current state holds, by address: a moved object keeps its id, a new one gets another. */
  const stateIds = (workspaceId: string) => Object.fromEntries([...stateInstances(h.store.stateVersions.current(workspaceId)!.state)].map(([address, { attributes }]) => [address, attributes.id]));
  /** Terraform's warning on moves blocked by an object already at their destination (context_plan.go blockedMovesWarningDiag). */
  const unresolved = (...items: string[]) =>
    `Terraform tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:${items.map((item) => `\n  - ${item}`).join('')}\n\nTerraform has planned to destroy these objects. If Terraform's proposed changes aren't appropriate, you must first resolve the conflicts using the "terraform state" subcommands and then create a new plan.`;
  const counted = (count: number | undefined, name = 'a') => `resource "terraform_data" "${name}" {\n${count === undefined ? '' : `  count = ${count}\n`}  input = "${name}"\n}\n`;

  test('the plain-text plan: a move alone, a moved instance that changes, a forget, a create-before-destroy replacement', async () => {
    const workspaceId = workspaceWith('refactoring-text', 'resource "terraform_data" "a" { input = "a" }\nresource "terraform_data" "b" { input = "b" }\nresource "terraform_data" "c" {}\nresource "terraform_data" "d" { triggers_replace = 1 }\n');
    await apply(await plan(workspaceId));
    upload(
      workspaceId,
      `resource "terraform_data" "a2" { input = "a" }
resource "terraform_data" "b2" { input = "b changed" }
resource "terraform_data" "d" {
  triggers_replace = 2
  lifecycle { create_before_destroy = true }
}
moved {
  from = terraform_data.a
  to   = terraform_data.a2
}
moved {
  from = terraform_data.b
  to   = terraform_data.b2
}
removed {
  from = terraform_data.c
  lifecycle { destroy = false }
}
`,
    );
    const log = await planLog(await plan(workspaceId));
    assert.match(log, /\+\/- create replacement and then destroy\n/);
    assert.match(log, /  # terraform_data\.b2 will be updated in-place\n  # \(moved from terraform_data\.b\)\n  ~ resource "terraform_data" "b2" \{/);
    assert.match(log, / # terraform_data\.c will no longer be managed by Terraform, but will not be destroyed\n # \(destroy = false is set in the configuration\)\n \. resource "terraform_data" "c" \{\n        id = "[^"]+"\n    \}/);
    assert.match(log, /  # terraform_data\.d must be replaced\n\+\/- resource "terraform_data" "d" \{/);
    assert.match(log, /  # terraform_data\.a has moved to terraform_data\.a2\n    resource "terraform_data" "a2" \{\n        id +=/);
    assert.match(log, /Warning: Some objects will no longer be managed by Terraform/);
    assert.match(log, /Plan: 1 to add, 1 to change, 1 to destroy\./);
  });

  test('an argument only known after apply keeps its record when its instance moves: no changes after the move', async () => {
    const reading = (name: string) => `resource "terraform_data" "a" { input = "a" }\nresource "terraform_data" "${name}" { input = terraform_data.a.id }\n`;
    const workspaceId = workspaceWith('refactoring-records', reading('b'));
    await apply(await plan(workspaceId));
    upload(workspaceId, `${reading('b2')}moved {\n  from = terraform_data.b\n  to   = terraform_data.b2\n}\n`);
    const moving = await plan(workspaceId);
    assert.match(await planLog(moving), /terraform_data\.b has moved to terraform_data\.b2\n/);
    assert.doesNotMatch(await planLog(moving), /will be updated/, 'the moved instance\'s unknown input is matched by its record');
    await apply(moving);
    assert.equal((await h.run(await plan(workspaceId))).attributes['has-changes'], false);
  });

  test('count added: the no-key instance moves to [0] (no destroy, no create), the other indexes are created', async () => {
    const workspaceId = workspaceWith('implied-count-added', counted(undefined));
    await apply(await plan(workspaceId));
    const before = stateIds(workspaceId);
    upload(workspaceId, counted(3));
    const run = await plan(workspaceId);
    assert.deepEqual(await resourceChanges(run), [
      ['terraform_data.a[0]', 'terraform_data.a', 'no-op', undefined],
      ['terraform_data.a[1]', undefined, 'create', undefined],
      ['terraform_data.a[2]', undefined, 'create', undefined],
    ]);
    const log = await planLog(run);
    assert.match(log, /Terraform will perform the following actions:\n\n  # terraform_data\.a has moved to terraform_data\.a\[0\]\n/, 'first, in address order');
    assert.match(log, /Plan: 2 to add, 0 to change, 0 to destroy\./);
    await apply(run);
    assert.equal(stateIds(workspaceId)['terraform_data.a[0]'], before['terraform_data.a']);
    assert.equal((await h.run(await plan(workspaceId))).attributes['has-changes'], false);
  });

  test('count removed: [0] moves to the no-key address, [1] and on are destroyed', async () => {
    const workspaceId = workspaceWith('implied-count-removed', counted(3));
    await apply(await plan(workspaceId));
    const before = stateIds(workspaceId);
    upload(workspaceId, counted(undefined));
    const run = await plan(workspaceId);
    assert.deepEqual(await resourceChanges(run), [
      ['terraform_data.a', 'terraform_data.a[0]', 'no-op', undefined],
      ['terraform_data.a[1]', undefined, 'delete', 'delete_because_wrong_repetition'],
      ['terraform_data.a[2]', undefined, 'delete', 'delete_because_wrong_repetition'],
    ]);
    const log = await planLog(run);
    assert.match(log, /  # terraform_data\.a\[0\] has moved to terraform_data\.a\n/);
    assert.match(log, /Plan: 0 to add, 0 to change, 2 to destroy\./);
    await apply(run);
    assert.deepEqual(stateIds(workspaceId), { 'terraform_data.a': before['terraform_data.a[0]'] });
  });

  test('an explicit moved block naming the resource takes precedence over the implied move; others still get theirs', async () => {
    const workspaceId = workspaceWith('implied-count-explicit', counted(2) + counted(2, 'b'));
    await apply(await plan(workspaceId));
    const before = stateIds(workspaceId);
    upload(workspaceId, `${counted(undefined)}${counted(undefined, 'b')}moved {\n  from = terraform_data.a[1]\n  to   = terraform_data.a\n}\n`);
    const run = await plan(workspaceId);
    assert.deepEqual(await resourceChanges(run), [
      ['terraform_data.a', 'terraform_data.a[1]', 'no-op', undefined],
      ['terraform_data.a[0]', undefined, 'delete', 'delete_because_wrong_repetition'],
      ['terraform_data.b', 'terraform_data.b[0]', 'no-op', undefined],
      ['terraform_data.b[1]', undefined, 'delete', 'delete_because_wrong_repetition'],
    ]);
    await apply(run);
    assert.deepEqual(stateIds(workspaceId), { 'terraform_data.a': before['terraform_data.a[1]'], 'terraform_data.b': before['terraform_data.b[0]'] });
  });

  test('for_each gets no implied move: the no-key instance is destroyed and the key created, while count beside it moves', async () => {
    const workspaceId = workspaceWith('implied-for-each', counted(undefined) + counted(undefined, 'b'));
    await apply(await plan(workspaceId));
    upload(workspaceId, `resource "terraform_data" "a" {\n  for_each = toset(["k"])\n  input    = "a"\n}\n${counted(1, 'b')}`);
    assert.deepEqual(await resourceChanges(await plan(workspaceId)), [
      ['terraform_data.a', undefined, 'delete', 'delete_because_wrong_repetition'],
      ['terraform_data.a["k"]', undefined, 'create', undefined],
      ['terraform_data.b[0]', 'terraform_data.b', 'no-op', undefined],
    ]);
  });

  test('a moved block onto a resource the state holds is blocked whole: its instances stay and are destroyed, with Terraform\'s warning', async () => {
    const workspaceId = workspaceWith('blocked-moved', counted(2) + counted(1, 'b'));
    await apply(await plan(workspaceId));
    upload(workspaceId, `${counted(2, 'b')}moved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\n`);
    const run = await plan(workspaceId);
    assert.deepEqual(await resourceChanges(run), [
      ['terraform_data.a[0]', undefined, 'delete', 'delete_because_no_resource_config'],
      ['terraform_data.a[1]', undefined, 'delete', 'delete_because_no_resource_config'],
      ['terraform_data.b[0]', undefined, 'no-op', undefined],
      ['terraform_data.b[1]', undefined, 'create', undefined],
    ], 'terraform_data.b[1] is free, but a resource-level move is blocked by any instance of its destination');
    const log = await planLog(run);
    assert.ok(log.includes(`│ Warning: Unresolved resource instance address changes\n│\n${unresolved('terraform_data.a could not move to terraform_data.b').split('\n').map((line) => (line ? `│ ${line}` : '│')).join('\n')}\n╵`), log);
    assert.match(log, /Plan: 1 to add, 0 to change, 2 to destroy\./);
  });

  test('an implied count move onto an address the state holds is blocked: [0] stays and is destroyed, with Terraform\'s warning in the structured log', async () => {
    const workspaceId = steps.workspaceWith('blocked-implied', counted(1));
    await apply(await plan(workspaceId));
    // Both the no-key instance and [0]: only a state written outside a run holds them together.
    pushState(workspaceId, (state) => {
      const instances = state.resources!.find((resource) => resource.name === 'a')!.instances as Array<Record<string, any>>;
      const { index_key: _key, ...first } = instances[0]!;
      instances.push({ ...first, attributes: { ...first.attributes, id: 'pushed' } });
    });
    upload(workspaceId, counted(undefined));
    const run = await plan(workspaceId);
    assert.deepEqual(await resourceChanges(run), [
      ['terraform_data.a', undefined, 'no-op', undefined],
      ['terraform_data.a[0]', undefined, 'delete', 'delete_because_wrong_repetition'],
    ]);
    const diagnostics = (await steps.log(run, 'plan')).split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line)).filter((entry) => entry.type === 'diagnostic');
    assert.deepEqual(diagnostics.map((entry) => [entry['@level'], entry['@message'], entry.diagnostic]), [
      ['warn', 'Warning: Unresolved resource instance address changes', { severity: 'warning', summary: 'Unresolved resource instance address changes', detail: unresolved('terraform_data.a[0] could not move to terraform_data.a') }],
    ]);
  });

  /** A refresh-only run planned to its end, the workspace's refresh finding drift or not (the seeded outcome says). */
  const refreshOnly = async (workspaceId: string, drift: boolean) => {
    h.store.workspace(workspaceId)!.planOutcome = { hasChanges: drift, errors: false, resourceAdditions: 0, resourceChanges: 0, resourceDestructions: 0 };
    return plan(workspaceId, { 'refresh-only': true });
  };
  /** The plan JSON's drift, in its order: address, previous_address, actions. */
  const resourceDrift = async (run: string, redacted = false) =>
    (((await planJson(run, redacted)).resource_drift ?? []) as any[]).map((c) => [c.address, c.previous_address, c.change.actions.join(',')]);

  // Terraform makes the moves before every plan walk (internal/terraform/context_plan.go planWalk calls
  // prePlanFindAndApplyMoves whatever the mode; TestContext2Plan_movedResourceRefreshOnly): a refresh-only plan plans
  // no change, so a move is drift (driftedResources: no-op, PrevRunAddr the old address), and its apply writes the
  // refreshed state, moved.
  test('a refresh-only plan makes the moves, explicit and implied, as drift (no changes); its apply writes the new addresses', async () => {
    const workspaceId = workspaceWith('refresh-only-moves', counted(undefined) + counted(undefined, 'b'));
    await apply(await plan(workspaceId));
    const before = stateIds(workspaceId);
    upload(workspaceId, `${counted(1)}${counted(undefined, 'b2').replace('input = "b2"', 'input = "b"')}moved {\n  from = terraform_data.b\n  to   = terraform_data.b2\n}\n`);
    const run = await refreshOnly(workspaceId, true);
    assert.deepEqual(await resourceChanges(run), []);
    const drift = [
      ['terraform_data.a[0]', 'terraform_data.a', 'no-op'],
      ['terraform_data.b2', 'terraform_data.b', 'no-op'],
    ];
    assert.deepEqual(await resourceDrift(run), drift);
    assert.deepEqual(await resourceDrift(run, true), drift, 'the CLI draws the plan from the redacted JSON');
    const log = await planLog(run);
    assert.match(log, /Terraform detected the following changes made outside of Terraform since the\nlast "terraform apply" which may have affected this plan:\n\n  # terraform_data\.a has moved to terraform_data\.a\[0\]\n    resource "terraform_data" "a" \{\n[^]*    \}\n\n  # terraform_data\.b has moved to terraform_data\.b2\n[^]*\n\nThis is a refresh-only plan, so Terraform will not take any actions to undo\n/);
    assert.doesNotMatch(log, /will be (created|destroyed)|Plan: /);
    assert.equal((await h.run(run)).attributes['has-changes'], true);
    await apply(run);
    assert.deepEqual(stateIds(workspaceId), { 'terraform_data.a[0]': before['terraform_data.a'], 'terraform_data.b2': before['terraform_data.b'] });
    assert.equal((await h.run(await plan(workspaceId))).attributes['has-changes'], false, 'the normal plan after it has nothing left to move');
  });

  test('a refresh-only plan whose refresh finds nothing else is not applyable for its moves alone: the state keeps its addresses', async () => {
    // context_plan.go planWalk: a refresh-only plan is applyable when PriorState differs from PrevRunState, and the
    // moves were made to both.
    const workspaceId = steps.workspaceWith('refresh-only-moves-alone', counted(undefined));
    await apply(await plan(workspaceId));
    const before = stateIds(workspaceId);
    upload(workspaceId, counted(2));
    const run = await refreshOnly(workspaceId, false);
    assert.deepEqual(await resourceDrift(run), [['terraform_data.a[0]', 'terraform_data.a', 'no-op']]);
    const entries = (await steps.log(run, 'plan')).split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));
    assert.deepEqual(entries.filter((entry) => entry.type === 'resource_drift').map((entry) => [entry['@message'], entry.change.action, entry.change.resource.addr, entry.change.previous_resource.addr]), [
      ['terraform_data.a[0]: Drift detected (move)', 'move', 'terraform_data.a[0]', 'terraform_data.a'],
    ]);
    assert.deepEqual(entries.filter((entry) => entry.type === 'planned_change'), []);
    const { attributes } = await h.run(run);
    assert.deepEqual([attributes.status, attributes['has-changes']], ['planned_and_finished', false]);
    assert.deepEqual(stateIds(workspaceId), before);
  });

  test('a refresh-only plan warns of a blocked move as any plan does', async () => {
    const workspaceId = workspaceWith('refresh-only-blocked', counted(1) + counted(1, 'b'));
    await apply(await plan(workspaceId));
    upload(workspaceId, `${counted(1, 'b')}moved {\n  from = terraform_data.a\n  to   = terraform_data.b\n}\n`);
    const run = await refreshOnly(workspaceId, false);
    assert.deepEqual(await resourceDrift(run), []);
    assert.ok((await planLog(run)).includes(`│ Warning: Unresolved resource instance address changes\n│\n${unresolved('terraform_data.a could not move to terraform_data.b').split('\n').map((line) => (line ? `│ ${line}` : '│')).join('\n')}\n╵`));
  });

  test('the plan JSON lists resource changes in Terraform\'s address order: root module first, then by type, name and key (numbers by value)', async () => {
    const workspaceId = workspaceWith('sorted-changes', '');
    upload(workspaceId, `module "m" {\n  source = "./m"\n}\nresource "terraform_data" "b" {}\nresource "terraform_data" "a" {\n  count = 11\n}\n`, { 'm/main.tf': 'resource "null_resource" "c" {}\n' });
    const run = await plan(workspaceId);
    assert.deepEqual((await resourceChanges(run)).map(([address]) => address), [
      ...Array.from({ length: 11 }, (_, index) => `terraform_data.a[${index}]`),
      'terraform_data.b',
      'module.m.null_resource.c',
    ]);
    assert.match(await planLog(run), /# terraform_data\.a\[9\] will be created[^]*# terraform_data\.a\[10\] will be created[^]*# terraform_data\.b will be created[^]*# module\.m\.null_resource\.c will be created/);
  });
});

// Output changes are changes, as Terraform plans them (node_output.go): a plan that only adds, changes or removes an
// output has changes and its apply saves them; an output that is null before and after is no change (a null root
// output is never saved); and the apply log lists the outputs the state holds after it, known at plan time or not.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { configurationSteps } from './configurationRuns';
import { startHarness, type Harness } from './runs-harness';

describe('configuration-driven runs: output changes', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ followConfiguration: true });
  });
  after(() => h.close());

  const steps = configurationSteps(() => h);
  const { upload, plan, apply } = steps;
  const workspaceWith = (name: string, text: string, structured = true) => steps.workspaceWith(name, text, { structuredRunOutputEnabled: structured });
  const outputChanges = async (run: string) => (await steps.planJson(run)).output_changes;
  const applyLog = async (run: string) => (await steps.log(run, 'apply')).split('\n');
  const state = (workspaceId: string) => h.store.stateVersions.current(workspaceId)!.state!;
  const hasChanges = async (run: string) => (await h.run(run)).attributes['has-changes'];

  test('adding an output is a change: the run waits for its apply, which saves the output', async () => {
    const workspaceId = workspaceWith('output-added', 'resource "terraform_data" "a" { input = 1 }\n');
    await apply(await plan(workspaceId));
    upload(workspaceId, 'resource "terraform_data" "a" { input = 1 }\noutput "added" { value = "new" }\n');
    const run = await plan(workspaceId);
    assert.equal(await hasChanges(run), true);
    const { attributes } = await h.run(run);
    assert.notEqual(attributes.status, 'planned_and_finished');
    assert.equal(attributes.actions['is-confirmable'], true, 'waits for its apply');
    assert.deepEqual((await outputChanges(run)).added.actions, ['create']);
    await apply(run);
    assert.deepEqual(state(workspaceId).outputs, { added: { value: 'new', type: 'string' } });
    assert.equal(await hasChanges(await plan(workspaceId)), false, 'once saved, the next plan has no changes');
  });

  test('changing or removing an output is a change; the apply saves the new value, or drops the output', async () => {
    const workspaceId = workspaceWith('output-changed', 'output "v" { value = "one" }\noutput "gone" { value = 1 }\n');
    await apply(await plan(workspaceId));
    upload(workspaceId, 'output "v" { value = "two" }\n');
    const run = await plan(workspaceId);
    assert.equal(await hasChanges(run), true);
    const changes = await outputChanges(run);
    assert.deepEqual(changes.v.actions, ['update']);
    assert.deepEqual(changes.gone, { actions: ['delete'], before: 1, after: null, after_unknown: false, before_sensitive: false, after_sensitive: false });
    await apply(run);
    assert.deepEqual(state(workspaceId).outputs, { v: { value: 'two', type: 'string' } });
  });

  test('an output that is null is no change, plan after plan, and is not saved', async () => {
    const workspaceId = workspaceWith('output-null', 'resource "terraform_data" "a" { input = 1 }\noutput "nul" { value = null }\n');
    const first = await plan(workspaceId);
    assert.deepEqual((await outputChanges(first)).nul, { actions: ['no-op'], before: null, after: null, after_unknown: false, before_sensitive: false, after_sensitive: false });
    await apply(first);
    assert.deepEqual(state(workspaceId).outputs, {});
    const second = await plan(workspaceId);
    assert.equal(await hasChanges(second), false);
    assert.equal((await h.run(second)).attributes.status, 'planned_and_finished');
  });

  test('a destroy plan deletes the outputs the state has; with nothing in the state it has no changes', async () => {
    const configuration = 'output "v" { value = "one" }\n';
    const empty = workspaceWith('destroy-nothing', configuration);
    const nothing = await h.createRun({ 'is-destroy': true }, { workspaceId: empty });
    await h.clock.advance(60_000);
    assert.equal(await hasChanges(nothing), false, 'the output it declares is not created by a destroy');

    const workspaceId = workspaceWith('destroy-outputs', configuration);
    await apply(await plan(workspaceId));
    const destroy = await h.createRun({ 'is-destroy': true }, { workspaceId });
    await h.clock.advance(60_000);
    assert.equal(await hasChanges(destroy), true);
    await apply(destroy);
    assert.deepEqual(state(workspaceId).outputs, {});
  });

  const readsResource = 'resource "terraform_data" "a" { input = "in" }\noutput "early" { value = "known" }\noutput "late" { value = terraform_data.a.output }\n';

  test('the structured apply log lists every output the state holds after the apply, those known only after apply too', async () => {
    const workspaceId = workspaceWith('outputs-logged', readsResource);
    const run = await plan(workspaceId);
    await apply(run);
    const entry = (await applyLog(run)).filter((line) => line.startsWith('{')).map((line) => JSON.parse(line)).find((e) => e.type === 'outputs');
    assert.equal(entry['@message'], 'Outputs: 2');
    assert.deepEqual(entry.outputs, { early: { sensitive: false, type: 'string', value: 'known' }, late: { sensitive: false, type: 'string', value: 'in' } });
    assert.deepEqual(Object.keys(state(workspaceId).outputs!).sort(), ['early', 'late']);
  });

  test('the plain-text apply log ends with the outputs as Terraform prints them', async () => {
    const workspaceId = workspaceWith('outputs-plain', `${readsResource}output "s" {\n  value     = "x"\n  sensitive = true\n}\noutput "list" { value = [1, "b"] }\noutput "map" { value = { k = "v" } }\n`, false);
    const run = await plan(workspaceId);
    await apply(run);
    const lines = await applyLog(run);
    const from = lines.indexOf('Outputs:');
    assert.ok(from > 0, lines.join('\n'));
    assert.deepEqual(lines.slice(from, -1), ['Outputs:', '', 'early = "known"', 'late = "in"', 'list = [', '  1,', '  "b",', ']', 'map = {', '  "k" = "v"', '}', 's = <sensitive>']);
  });
});

// A run's plan against the workspace's current state version, whoever wrote it: a state written outside a run
// (here, straight into the store, as `state push` / `state mv` / `terraform import` would) is what the plan diffs,
// and an argument the emulator cannot evaluate counts as unchanged only while the state still holds what the apply
// that recorded it wrote.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TerraformState } from '../../emulator/src/store/stateVersions';
import { configurationSteps } from './configurationRuns';
import { startHarness, type Harness } from './runs-harness';

const configuration = `
resource "terraform_data" "a" { input = "a" }
resource "terraform_data" "b" { input = terraform_data.a.id }
`;

describe('configuration-driven runs plan against the current state version', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ followConfiguration: true });
  });
  after(() => h.close());

  const { workspaceWith, plan, apply, planJson, pushState } = configurationSteps(() => h);
  /** The planned actions by address, read from the plan JSON the CLI reads. */
  const actions = async (run: string) => {
    const json = (await planJson(run)) as { resource_changes?: Array<{ address: string; change: { actions: string[] } }> };
    return Object.fromEntries((json.resource_changes ?? []).filter((c) => c.change.actions[0] !== 'no-op').map((c) => [c.address, c.change.actions.join(',')]));
  };
  const instanceOf = (state: TerraformState, name: string) => (state.resources!.find((r) => r.name === name)!.instances![0] as { attributes: Record<string, unknown> });

  test('an argument read from another resource is unchanged after its apply; a state pushed since with another value updates it', async () => {
    const workspaceId = workspaceWith('unknown-arguments', configuration);
    await apply(await plan(workspaceId));
    assert.deepEqual(await actions(await plan(workspaceId)), {}, 'the record of b.input matches the code and the state');
    pushState(workspaceId, (state) => {
      instanceOf(state, 'b').attributes.input = { value: 'pushed', type: 'string' };
    });
    assert.deepEqual(await actions(await plan(workspaceId)), { 'terraform_data.b': 'update' });
  });

  test('instances moved and removed in a pushed state: the plan creates and deletes by the state', async () => {
    const workspaceId = workspaceWith('moved', 'resource "terraform_data" "a" { input = "a" }\nresource "terraform_data" "c" { input = "c" }\n');
    await apply(await plan(workspaceId));
    pushState(workspaceId, (state) => {
      state.resources = state.resources!.filter((r) => r.name !== 'c').map((r) => (r.name === 'a' ? { ...r, name: 'a2' } : r));
    });
    const run = await plan(workspaceId);
    assert.deepEqual(await actions(run), { 'terraform_data.a': 'create', 'terraform_data.a2': 'delete', 'terraform_data.c': 'create' });
  });
});

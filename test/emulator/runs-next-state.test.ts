// The state an apply writes is the current state with the run's changes made to it: whatever wrote the current
// state (a remote apply, `state mv` / `state rm` / `state push`, an import) is kept, not rebuilt from the runs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nextStateResources } from '../../emulator/src/runs/nextStateResources';
import { stateInstances } from '../../emulator/src/runs/stateInstances';
import type { PlannedChange } from '../../emulator/src/runs/model';
import type { TerraformState } from '../../emulator/src/store/stateVersions';

const builtin = 'provider["terraform.io/builtin/terraform"]';
const instance = (id: string, input: string, extra: Record<string, unknown> = {}) => ({
  schema_version: 0,
  attributes: { id, input: { value: input, type: 'string' }, output: { value: input, type: 'string' }, triggers_replace: null },
  sensitive_attributes: [],
  ...extra,
});
/** After `terraform state mv terraform_data.a terraform_data.a2` and `state rm terraform_data.c`, with a data source. */
const current: TerraformState = {
  version: 4,
  serial: 3,
  lineage: 'l',
  resources: [
    { mode: 'data', type: 'external', name: 'lookup', provider: 'provider["registry.terraform.io/hashicorp/external"]', instances: [{ schema_version: 0, attributes: { id: '-' } }] },
    { mode: 'managed', type: 'terraform_data', name: 'b', provider: builtin, instances: [instance('b-id', 'b', { private: 'opaque', dependencies: ['terraform_data.a2'] })] },
    { mode: 'managed', type: 'terraform_data', name: 'a2', provider: builtin, instances: [instance('a-id', 'a')] },
  ],
};
const update = (address: string, input: string, id: string): PlannedChange => ({ address, action: 'update', before: { id, input: 'b' }, after: { id, input }, afterUnknown: ['output'], sensitive: [] });

describe('the state an apply writes', () => {
  test('an unrelated update keeps what state mv and rm left: a2 stays as it was, c does not come back, the data source stays', () => {
    const written = nextStateResources(current, stateInstances(current), [update('terraform_data.b', 'b-changed', 'b-id')], 'run-1');
    const instances = stateInstances({ ...current, resources: written });
    assert.deepEqual([...instances.keys()], ['terraform_data.b', 'terraform_data.a2']);
    assert.deepEqual(instances.get('terraform_data.b')?.attributes, { id: 'b-id', input: 'b-changed', output: 'b-changed' });
    assert.deepEqual(written[0], current.resources![0], 'the data source as it was');
    assert.deepEqual(written[2], current.resources![2], 'a2 untouched');
    assert.equal((written[1]!.instances![0] as { private?: unknown }).private, undefined, 'the updated instance is written anew');
  });

  test('a create adds an instance (to its resource when it has one), a delete removes one and prunes an empty resource, a replace rewrites it in place', () => {
    const changes: PlannedChange[] = [
      { address: 'terraform_data.a2', action: 'delete', before: { id: 'a-id' }, after: null, afterUnknown: [], sensitive: [] },
      { address: 'terraform_data.c', action: 'create', before: null, after: { input: 'c' }, afterUnknown: ['id', 'output'], sensitive: [] },
      { address: 'terraform_data.b', action: 'replace', before: { id: 'b-id' }, after: { input: 'b' }, afterUnknown: ['id', 'output'], sensitive: [] },
    ];
    const written = nextStateResources(current, stateInstances(current), changes, 'run-2');
    assert.deepEqual(written.map((resource) => `${resource.mode}.${resource.name}`), ['data.lookup', 'managed.b', 'managed.c']);
    const instances = stateInstances({ ...current, resources: written });
    assert.notEqual(instances.get('terraform_data.b')?.attributes.id, 'b-id', 'a replacement is a new object');
    assert.equal(instances.get('terraform_data.c')?.attributes.output, 'c');
  });
});

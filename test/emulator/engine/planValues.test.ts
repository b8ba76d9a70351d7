// The plan JSON's planned_values and prior_state for what the CLI test (test/cli/show-json.test.ts) does not reach
// cheaply: child modules (Terraform nests each module instance under its parent), forgotten instances (gone from
// planned_values, kept in prior_state), a destroy plan, and a first plan (no prior state at all).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { planJsonDocument } from '../../../emulator/src/runs/planJson';
import type { PlannedChange, RunRecord } from '../../../emulator/src/runs/model';

const runWith = (changes: PlannedChange[], more: Partial<RunRecord> = {}) =>
  ({ engineVersion: '1.11.4', changes, isDestroy: false, replaceAddrs: null, ...more }) as unknown as RunRecord;
const created = (address: string): PlannedChange => ({ address, action: 'create', before: null, after: { input: 'v' }, afterUnknown: ['id', 'output'], sensitive: [] });
const addresses = (module: any): string[] => (module.resources ?? []).map((resource: { address: string }) => resource.address);

describe('plan JSON: planned_values and prior_state', () => {
  test('module instances nest under their parent, each with its address, as Terraform writes them', () => {
    const document = planJsonDocument(runWith([created('module.net.module.inner.terraform_data.y'), created('terraform_data.top'), created('module.net.terraform_data.x'), created('module.app["a.b"].terraform_data.z')]));
    const root = (document.planned_values as any).root_module;
    assert.deepEqual(addresses(root), ['terraform_data.top']);
    assert.deepEqual(root.child_modules.map((module: { address: string }) => module.address), ['module.app["a.b"]', 'module.net']);
    const net = root.child_modules[1];
    assert.deepEqual(addresses(net), ['module.net.terraform_data.x']);
    assert.deepEqual(net.child_modules.map((module: { address: string }) => [module.address, addresses(module)]), [['module.net.module.inner', ['module.net.module.inner.terraform_data.y']]]);
    assert.equal('prior_state' in document, false, 'a plan from an empty state has none');
  });

  test('a forgotten instance leaves planned_values but stays in prior_state', () => {
    const document = planJsonDocument(runWith([{ address: 'x.kept', action: 'forget', before: { id: 'k' }, after: null, afterUnknown: [], sensitive: [] }]));
    assert.deepEqual((document.planned_values as any).root_module, {});
    assert.deepEqual(addresses((document.prior_state as any).values.root_module), ['x.kept']);
  });

  test('a destroy plan plans no outputs; the prior state keeps their stored values', () => {
    const document = planJsonDocument(
      runWith([{ address: 'x.a', action: 'delete', before: { id: 'a', secret: 's' }, after: null, sensitive: ['secret'] }], {
        isDestroy: true,
        outputs: [{ name: 'o', before: 'old', after: 'new', sensitive: false, action: 'update' }],
      }),
    );
    assert.deepEqual(document.planned_values, { root_module: {} });
    assert.deepEqual((document.prior_state as any).values.outputs, { o: { sensitive: false, value: 'old', type: 'string' } });
    assert.deepEqual((document.prior_state as any).values.root_module.resources[0].sensitive_values, { secret: true });
  });
});

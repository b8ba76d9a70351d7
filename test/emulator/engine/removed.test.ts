// `removed` blocks in the configuration-driven plan: what they say (destroy defaults to true), which state
// instances they cover, the plan's forget or delete, what the apply leaves in the state and the plan JSON's action,
// and Terraform's warning (forgotten objects) and error (a removed resource still declared).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { readConfiguration } from '../../../emulator/src/engine/configuration';
import { configuredChanges } from '../../../emulator/src/engine/plan';
import { removalOf } from '../../../emulator/src/engine/refactoring';
import type { RunRecord } from '../../../emulator/src/runs/model';
import { nextStateResources } from '../../../emulator/src/runs/nextStateResources';
import { planFindings } from '../../../emulator/src/runs/planFindings';
import { planJsonDocument } from '../../../emulator/src/runs/planJson';
import { stateInstances } from '../../../emulator/src/runs/stateInstances';
import type { TerraformState } from '../../../emulator/src/store/stateVersions';
import type { TerraformParser } from '../../../server/src/model';
import { testParser } from '../../model/helpers';

const files = (text: string) => new Map([['main.tf', Buffer.from(text)]]);
const stateOf = (addresses: string[]) => new Map(addresses.map((address) => [address, { attributes: { id: address } }]));
const run = { isDestroy: false, refreshOnly: false };

describe('removed blocks', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await testParser();
  });
  const read = (text: string) => readConfiguration(parser, files(text), new Map())!;

  const text = `
resource "x" "stays" {}

removed {
  from = x.forgotten
  lifecycle {
    destroy = false
  }
}

removed {
  from = x.destroyed
}

removed {
  from = module.old
  lifecycle { destroy = false }
}
`;

  test('the statements: destroy is true unless the lifecycle says false; a removed-only configuration is still one to plan', () => {
    assert.deepEqual(read(text).removals.map(({ from, destroy }) => [from, destroy]), [['x.forgotten', false], ['x.destroyed', true], ['module.old', false]]);
    assert.ok(readConfiguration(parser, files('removed {\n  from = x.a\n}\n'), new Map()));
  });

  test('what a statement covers: every instance of the resource, everything in the module; nothing with a longer name', () => {
    const { removals } = read(text);
    assert.equal(removalOf('x.forgotten[3]', removals)?.from, 'x.forgotten');
    assert.equal(removalOf('module.old["a"].y.z', removals)?.from, 'module.old');
    assert.equal(removalOf('x.forgotten_too', removals), undefined);
    assert.equal(removalOf('module.older.y.z', removals), undefined);
  });

  test('the plan forgets what destroy = false covers and destroys the rest the code no longer declares', () => {
    const changes = configuredChanges({ run, declared: read(text), state: stateOf(['x.stays', 'x.forgotten[0]', 'x.destroyed', 'module.old.y.z', 'x.unmentioned']), unknownArguments: new Map() });
    assert.deepEqual(changes, [
      { address: 'x.forgotten[0]', action: 'forget' },
      { address: 'x.destroyed', action: 'delete', actionReason: 'delete_because_no_resource_config' },
      { address: 'module.old.y.z', action: 'forget' },
      { address: 'x.unmentioned', action: 'delete', actionReason: 'delete_because_no_resource_config' },
    ]);
  });

  test('applied, a forgotten instance leaves the state (its resource too, once empty); the plan JSON says "forget"', () => {
    const current: TerraformState = { version: 4, serial: 1, lineage: 'l', resources: [{ mode: 'managed', type: 'x', name: 'forgotten', provider: 'p', instances: [{ attributes: { id: 'f' } }] }] };
    assert.deepEqual(nextStateResources(current, stateInstances(current), [{ address: 'x.forgotten', action: 'forget' }], 'run-1'), []);
    const document = planJsonDocument({ engineVersion: '1.11.4', changes: [{ address: 'x.forgotten', action: 'forget', before: { id: 'f' }, after: null, afterUnknown: [], sensitive: [] }], isDestroy: false, replaceAddrs: null } as unknown as RunRecord);
    assert.deepEqual((document.resource_changes as Array<{ change: { actions: string[]; after: unknown } }>)[0]!.change, {
      actions: ['forget'],
      before: { id: 'f' },
      after: null,
      after_unknown: false,
      before_sensitive: {},
      after_sensitive: false,
    });
  });

  test('Terraform\'s warning names each forgotten instance; a removed resource the code still declares is an error at its block', () => {
    const declared = read(`${text}\nresource "x" "destroyed" {}\n`);
    const findings = planFindings([{ address: 'x.forgotten[0]', action: 'forget' }, { address: 'module.old.y.z', action: 'forget' }], declared);
    assert.deepEqual(findings.map((f) => [f.severity, f.summary, f.location?.line]), [
      ['error', 'Removed resource still exists', 20],
      ['warning', 'Some objects will no longer be managed by Terraform', undefined],
    ]);
    assert.equal(findings[0]!.detail, 'This statement declares that x.destroyed was removed, but it is still declared in configuration.');
    assert.match(findings[1]!.detail, /but it will not delete them:\n - x\.forgotten\[0\]\n - module\.old\.y\.z\n\nAfter applying this plan/);
  });
});

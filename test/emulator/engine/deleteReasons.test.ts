// Why a plan destroys an instance (Terraform's action_reason), for the cases test/cli/delete-reasons.test.ts does
// not reach through the CLI: an instance key that does not fit the block's repetition (Terraform's implicit move
// takes the one obvious case, `x[0]` → `x`; the others are destroyed "because resource does not use count"), a
// count the emulator cannot evaluate (no reason claimed), a destroy plan (none either), and a forget.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { readConfiguration } from '../../../emulator/src/engine/configuration';
import { configuredChanges } from '../../../emulator/src/engine/plan';
import type { TerraformParser } from '../../../server/src/model';
import { testParser } from '../../model/helpers';

const files = (text: string) => new Map([['main.tf', Buffer.from(text)]]);
const stateOf = (addresses: string[]) => new Map(addresses.map((address) => [address, { attributes: { id: address } }]));

describe('delete reasons', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await testParser();
  });
  const reasons = (text: string, state: string[], isDestroy = false) =>
    configuredChanges({ run: { isDestroy, refreshOnly: false }, declared: readConfiguration(parser, files(text), new Map())!, state: stateOf(state), unknownArguments: new Map() })
      .filter((change) => change.action !== 'create')
      .map((change) => [change.address, change.action, change.actionReason]);

  test('an instance key that does not fit the block\'s repetition is the wrong repetition', () => {
    const text = 'resource "x" "single" {}\nresource "x" "counted" { count = 1 }\nresource "x" "each" { for_each = toset(["a"]) }\n';
    assert.deepEqual(reasons(text, ['x.single[1]', 'x.single["k"]', 'x.counted', 'x.counted["k"]', 'x.each[0]']), [
      ['x.single[1]', 'delete', 'delete_because_wrong_repetition'],
      ['x.single["k"]', 'delete', 'delete_because_wrong_repetition'],
      ['x.counted', 'delete', 'delete_because_wrong_repetition'],
      ['x.counted["k"]', 'delete', 'delete_because_wrong_repetition'],
      ['x.each[0]', 'delete', 'delete_because_wrong_repetition'],
    ]);
  });

  test('a count the emulator cannot evaluate claims no reason; a destroy plan and a forget carry none', () => {
    assert.deepEqual(reasons('resource "x" "a" { count = length(x.other.list) }\nresource "x" "other" {}\n', ['x.a[3]']), [['x.a[3]', 'delete', undefined]]);
    assert.deepEqual(reasons('resource "x" "a" {}\n', ['x.a', 'x.b'], true), [['x.a', 'delete', undefined], ['x.b', 'delete', undefined]]);
    assert.deepEqual(reasons('removed {\n  from = x.b\n  lifecycle {\n    destroy = false\n  }\n}\n', ['x.b']), [['x.b', 'forget', undefined]]);
  });
});

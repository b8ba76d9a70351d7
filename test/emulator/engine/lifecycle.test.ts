// A resource's `lifecycle` in the configuration-driven plan: what the block says (read from its text), the diff
// it changes (ignore_changes, create_before_destroy), the values the plan shows for ignored arguments, and the
// plan's error for prevent_destroy. Pure functions over parsed texts.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { readConfiguration } from '../../../emulator/src/engine/configuration';
import { configuredChanges } from '../../../emulator/src/engine/plan';
import { withValues } from '../../../emulator/src/runs/changeValues';
import { planFindings } from '../../../emulator/src/runs/planFindings';
import type { TerraformParser } from '../../../server/src/model';
import { testParser } from '../../model/helpers';

const files = (text: string) => new Map([['main.tf', Buffer.from(text)]]);
const stateOf = (entries: Record<string, Record<string, unknown>>) => new Map(Object.entries(entries).map(([address, attributes]) => [address, { attributes, sensitive: [] as string[] }]));
const run = { isDestroy: false, refreshOnly: false };

describe('lifecycle in configuration-driven plans', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await testParser();
  });
  const read = (text: string) => readConfiguration(parser, files(text), new Map())!;

  test('the block\'s settings: booleans, an ignore_changes list (a path names its top-level argument), all; none without a block', () => {
    const declared = read(`
resource "x" "listed" {
  lifecycle {
    prevent_destroy       = true
    create_before_destroy = true
    ignore_changes        = [tags["Name"], input]
  }
}
resource "x" "all" {
  lifecycle { ignore_changes = all }
}
resource "x" "plain" {}
`);
    assert.deepEqual(
      declared.instances.map((i) => i.lifecycle),
      [
        { preventDestroy: true, createBeforeDestroy: true, ignoreChanges: ['tags', 'input'] },
        { preventDestroy: false, createBeforeDestroy: false, ignoreChanges: 'all' },
        { preventDestroy: false, createBeforeDestroy: false, ignoreChanges: [] },
      ],
    );
    assert.deepEqual(declared.instances[0]!.declaredAt, { file: 'main.tf', line: 2, text: 'resource "x" "listed" {' });
    assert.deepEqual(declared.instances[0]!.values, {}, 'lifecycle is not an argument of the resource');
  });

  test('ignore_changes: the listed argument (or all) is not diffed, others still are; the plan shows the state\'s value for it', () => {
    const declared = read(`
resource "x" "listed" {
  a = "new"
  b = "new"
  lifecycle { ignore_changes = [a] }
}
resource "x" "all" {
  a = "new"
  lifecycle { ignore_changes = all }
}
resource "x" "only_ignored" {
  a = "new"
  lifecycle { ignore_changes = [a] }
}
`);
    const state = stateOf({ 'x.listed': { id: '1', a: 'old', b: 'old' }, 'x.all': { id: '2', a: 'old' }, 'x.only_ignored': { id: '3', a: 'old' } });
    const changes = configuredChanges({ run, declared, state, unknownArguments: new Map() });
    assert.deepEqual(changes, [{ address: 'x.listed', action: 'update' }]);
    assert.deepEqual(withValues(changes, declared, state)[0]!.after, { a: 'old', b: 'new', id: '1' });
  });

  test('create_before_destroy marks a replacement (by trigger or request), nothing else', () => {
    const declared = read(`
resource "terraform_data" "t" {
  triggers_replace = "v2"
  input            = "new"
  lifecycle { create_before_destroy = true }
}
resource "terraform_data" "u" {
  input = "new"
  lifecycle { create_before_destroy = true }
}
resource "terraform_data" "plain" { triggers_replace = "v2" }
`);
    const state = stateOf({ 'terraform_data.t': { id: '1', triggers_replace: 'v1' }, 'terraform_data.u': { id: '2', input: 'old' }, 'terraform_data.plain': { id: '3', triggers_replace: 'v1' } });
    assert.deepEqual(configuredChanges({ run, declared, state, unknownArguments: new Map() }), [
      { address: 'terraform_data.t', action: 'replace', createBeforeDestroy: true },
      { address: 'terraform_data.u', action: 'update' },
      { address: 'terraform_data.plain', action: 'replace' },
    ]);
  });

  test('prevent_destroy: an error for each protected instance the plan destroys or replaces, pointing at its block; not for one the code dropped', () => {
    const declared = read(`
resource "x" "kept" {
  count = 2
  lifecycle { prevent_destroy = true }
}
resource "x" "free" {}
`);
    const findings = planFindings(
      [
        { address: 'x.kept[0]', action: 'replace' },
        { address: 'x.kept[1]', action: 'update' },
        { address: 'x.free', action: 'delete' },
        { address: 'x.dropped', action: 'delete' },
      ],
      declared,
    );
    assert.deepEqual(findings.map((f) => [f.severity, f.summary, f.location]), [['error', 'Instance cannot be destroyed', { file: 'main.tf', line: 2, text: 'resource "x" "kept" {' }]]);
    assert.match(findings[0]!.detail, /^Resource x\.kept\[0\] has lifecycle\.prevent_destroy set, but the plan calls for this resource to be destroyed\./);
    const destroyAll = configuredChanges({ run: { isDestroy: true, refreshOnly: false }, declared, state: stateOf({ 'x.kept[0]': { id: '1' } }), unknownArguments: new Map() });
    assert.equal(planFindings(destroyAll, declared).length, 1, 'a destroy plan is refused too');
  });
});

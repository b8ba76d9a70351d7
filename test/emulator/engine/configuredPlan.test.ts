// The configuration-driven plan: instances (count, for_each, through variables), fingerprints, outputs, and the
// diff against what was applied. Pure functions over parsed texts.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { readConfiguration } from '../../../emulator/src/engine/configuration';
import { configuredChanges, variableValues, type AppliedInstance } from '../../../emulator/src/engine/plan';
import type { Variable } from '../../../emulator/src/store/model';
import type { TerraformParser } from '../../../server/src/model';
import { testParser } from '../../model/helpers';

const files = (text: string, extra: Record<string, string> = {}) => new Map(Object.entries({ 'main.tf': text, ...extra }).map(([k, v]) => [k, Buffer.from(v)]));
const variable = (key: string, value: string, hcl = false): Variable => ({ id: `var-${key}`, workspaceId: 'ws-1', key, value, description: null, category: 'engine', hcl, sensitive: false, createdAt: new Date(0), versionId: 'v' });

describe('configuration-driven plans', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await testParser();
  });
  const read = (text: string, values = new Map()) => readConfiguration(parser, files(text), values)!;

  test('count and for_each expand to instances, also through variables and toset(); for_each keys in Terraform\'s order (sorted)', () => {
    const declared = read(`
variable "names" { default = ["b", "a", "a"] }
resource "x" "counted" { count = 2 }
resource "x" "each" { for_each = toset(var.names) }
resource "x" "map" { for_each = { two = 2, one = 1, Zed = 0 } }
resource "x" "single" {}
data "x" "ignored" {}
`);
    assert.deepEqual(declared.instances.map((i) => i.address), ['x.counted[0]', 'x.counted[1]', 'x.each["a"]', 'x.each["b"]', 'x.map["Zed"]', 'x.map["one"]', 'x.map["two"]', 'x.single']);
  });

  test('a module\'s files are not the root module\'s; no resources and no outputs: no configuration', () => {
    assert.equal(readConfiguration(parser, files('variable "x" {}', { 'modules/net/main.tf': 'resource "a" "b" {}' }), new Map()), undefined);
  });

  test('outputs: literals and variables known (run over workspace over default), the rest after apply', () => {
    const values = variableValues(parser, new Map(), [variable('region', 'eu-west-1'), variable('sizes', '[1, 2]', true)], [{ key: 'region', value: '"us-east-1"' }]);
    const declared = read(`
variable "region" { default = "nowhere" }
variable "sizes" {}
output "region" { value = var.region }
output "sizes" { value = var.sizes }
output "literal" {
  value     = { a = true }
  sensitive = true
}
output "later" { value = terraform_data.x.id }
resource "terraform_data" "x" {}
`, values);
    assert.deepEqual(declared.outputs, [
      { name: 'region', sensitive: false, value: 'us-east-1', unknown: false },
      { name: 'sizes', sensitive: false, value: [1, 2], unknown: false },
      { name: 'literal', sensitive: true, value: { a: true }, unknown: false },
      { name: 'later', sensitive: false, unknown: true },
    ]);
  });

  test('outputs that read resources: the attributes the caller gives (object, count tuple, for_each map, in a module), else unknown', () => {
    const text = `
resource "terraform_data" "a" { input = "x" }
resource "terraform_data" "b" {
  count = 2
  input = count.index
}
resource "terraform_data" "c" { for_each = toset(["k"]) }
data "terraform_data" "d" {}
module "m" { source = "./m" }
output "a" { value = terraform_data.a.output }
output "ids" { value = terraform_data.b[*].id }
output "second" { value = terraform_data.b[1].output }
output "keyed" { value = terraform_data.c["k"].id }
output "inner" { value = module.m.out }
output "data" { value = data.terraform_data.d.id }
`;
    const module = { 'm/main.tf': 'resource "terraform_data" "a" { input = "in" }\noutput "out" { value = terraform_data.a.output }\n' };
    const state = new Map<string, Record<string, unknown>>([
      ['terraform_data.a', { id: 'a1', output: 'x' }],
      ['terraform_data.b[0]', { id: 'b0', output: 0 }],
      ['terraform_data.b[1]', { id: 'b1', output: 1 }],
      ['terraform_data.c["k"]', { id: 'c1' }],
      ['module.m.terraform_data.a', { id: 'm1', output: 'in' }],
    ]);
    const outputs = (attributes?: (address: string) => Record<string, unknown> | undefined) =>
      Object.fromEntries(readConfiguration(parser, files(text, module), new Map(), attributes ? { instanceAttributes: attributes } : {})!.outputs.map((o) => [o.name, o.value]));
    assert.deepEqual(outputs((address) => state.get(address)), { a: 'x', ids: ['b0', 'b1'], second: 1, keyed: 'c1', inner: 'in', data: undefined });
    assert.deepEqual(outputs(), { a: undefined, ids: undefined, second: undefined, keyed: undefined, inner: undefined, data: undefined });
    // One instance not given (one the plan changes) leaves the whole resource unknown.
    assert.equal(outputs((address) => (address === 'terraform_data.b[0]' ? undefined : state.get(address))).ids, undefined);
  });

  test('fingerprints change with the arguments or the variables they read, not with count or for_each', () => {
    const base = 'resource "x" "y" {\n  count = var.n\n  input = var.who\n}';
    const of = (text: string, who: string, n: number) => read(text, new Map<string, unknown>([['who', who], ['n', n]]) as never).instances[0]!.fingerprint;
    assert.equal(of(base, 'a', 1), of(base, 'a', 3));
    assert.notEqual(of(base, 'a', 1), of(base, 'b', 1));
    assert.notEqual(of(base, 'a', 1), of(base.replace('input', 'other'), 'a', 1));
  });

  test('the diff: create, update, replace (by request or trigger), delete, no-op; destroy and refresh-only', () => {
    const declared = read(`
resource "x" "kept" { a = 1 }
resource "x" "changed" { a = 2 }
resource "terraform_data" "triggered" { triggers_replace = "v2" }
resource "x" "asked" {}
resource "x" "new" {}
`);
    const fingerprint = (address: string) => declared.instances.find((i) => i.address === address)!;
    const applied = new Map<string, AppliedInstance>([
      ['x.kept', { fingerprint: fingerprint('x.kept').fingerprint }],
      ['x.changed', { fingerprint: 'old' }],
      ['terraform_data.triggered', { fingerprint: fingerprint('terraform_data.triggered').fingerprint, replaceTrigger: '"v1"|[]' }],
      ['x.asked', { fingerprint: fingerprint('x.asked').fingerprint }],
    ]);
    const managed = ['x.kept', 'x.changed', 'terraform_data.triggered', 'x.asked', 'x.gone'];
    const run = { isDestroy: false, refreshOnly: false, replaceAddrs: ['x.asked'] };
    assert.deepEqual(configuredChanges({ run, declared, managed, applied }), [
      { address: 'x.changed', action: 'update' },
      { address: 'terraform_data.triggered', action: 'replace' },
      { address: 'x.asked', action: 'replace' },
      { address: 'x.new', action: 'create' },
      { address: 'x.gone', action: 'delete' },
    ]);
    assert.deepEqual(configuredChanges({ run: { isDestroy: true, refreshOnly: false }, declared, managed: ['x.kept'], applied }), [{ address: 'x.kept', action: 'delete' }]);
    assert.deepEqual(configuredChanges({ run: { isDestroy: false, refreshOnly: true }, declared, managed, applied }), []);
  });
  test('the diff after an apply: nothing changes, a trigger read from a variable replaces, a module input updates, a dropped module instance deletes', () => {
    const text = `
variable "release" { default = "1" }
variable "size" { default = 1 }
variable "names" { default = ["a", "b"] }
resource "terraform_data" "deploy" { triggers_replace = "v\${var.release}" }
module "app" {
  source   = "./app"
  for_each = toset(var.names)
  size     = var.size
}
`;
    const upload = (values: Map<string, unknown>) => readConfiguration(parser, files(text, { 'app/main.tf': 'variable "size" {}\nresource "x" "vm" { size = var.size }\n' }), values as never)!;
    const first = upload(new Map());
    const managed = first.instances.map((i) => i.address);
    const applied = new Map<string, AppliedInstance>(first.instances.map((i) => [i.address, { fingerprint: i.fingerprint, ...(i.replaceTrigger !== undefined ? { replaceTrigger: i.replaceTrigger } : {}) }]));
    const run = { isDestroy: false, refreshOnly: false };
    assert.deepEqual(managed, ['terraform_data.deploy', 'module.app["a"].x.vm', 'module.app["b"].x.vm']);
    assert.deepEqual(configuredChanges({ run, declared: upload(new Map()), managed, applied }), []);
    assert.deepEqual(configuredChanges({ run, declared: upload(new Map<string, unknown>([['release', '2'], ['size', 2], ['names', ['a']]])), managed, applied }), [
      { address: 'terraform_data.deploy', action: 'replace' },
      { address: 'module.app["a"].x.vm', action: 'update' },
      { address: 'module.app["b"].x.vm', action: 'delete' },
    ]);
  });
});

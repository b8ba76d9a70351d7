// The configuration-driven plan: instances (count, for_each, through variables), outputs, and the diff of the
// evaluated arguments against the state's attributes (fingerprints only where the engine cannot evaluate). Pure
// functions over parsed texts.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { readConfiguration } from '../../../emulator/src/engine/configuration';
import { configuredChanges, variableValues } from '../../../emulator/src/engine/plan';
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

  test('an argument the engine cannot evaluate gets a fingerprint of its text and what it reads, not of count or for_each', () => {
    const base = 'resource "x" "y" {\n  count = var.n\n  input = unevaluated(var.who)\n  known = var.who\n}';
    const of = (text: string, who: string, n: number) => read(text, new Map<string, unknown>([['who', who], ['n', n]]) as never).instances[0]!;
    assert.deepEqual([of(base, 'a', 1).unknown, Object.keys(of(base, 'a', 1).unknownFingerprints)], [['input'], ['input']], 'only the unknown argument has one');
    assert.equal(of(base, 'a', 1).unknownFingerprints.input, of(base, 'a', 3).unknownFingerprints.input);
    assert.notEqual(of(base, 'a', 1).unknownFingerprints.input, of(base, 'b', 1).unknownFingerprints.input);
    assert.notEqual(of(base, 'a', 1).unknownFingerprints.input, of(base.replace('unevaluated(', 'other('), 'a', 1).unknownFingerprints.input);
  });

  const stateOf = (entries: Record<string, Record<string, unknown>>) => new Map(Object.entries(entries).map(([address, attributes]) => [address, { attributes }]));
  const run = { isDestroy: false, refreshOnly: false };

  test('the diff: create, update, replace (by request or trigger), delete, no-op; destroy and refresh-only', () => {
    const declared = read(`
resource "x" "kept" { a = 1 }
resource "x" "changed" { a = 2 }
resource "terraform_data" "triggered" { triggers_replace = "v2" }
resource "x" "asked" {}
resource "x" "new" {}
`);
    const state = stateOf({
      'x.kept': { id: 'k', a: 1 },
      'x.changed': { id: 'c', a: 1 },
      'terraform_data.triggered': { id: 't', triggers_replace: 'v1' },
      'x.asked': { id: 'a' },
      'x.gone': { id: 'g' },
    });
    assert.deepEqual(configuredChanges({ run: { ...run, replaceAddrs: ['x.asked'] }, declared, state, unknownArguments: new Map() }), [
      { address: 'x.changed', action: 'update' },
      { address: 'terraform_data.triggered', action: 'replace' },
      { address: 'x.asked', action: 'replace' },
      { address: 'x.new', action: 'create' },
      { address: 'x.gone', action: 'delete', actionReason: 'delete_because_no_resource_config' },
    ]);
    assert.deepEqual(configuredChanges({ run: { isDestroy: true, refreshOnly: false }, declared, state: stateOf({ 'x.kept': { id: 'k' } }), unknownArguments: new Map() }), [{ address: 'x.kept', action: 'delete' }]);
    assert.deepEqual(configuredChanges({ run: { isDestroy: false, refreshOnly: true }, declared, state, unknownArguments: new Map() }), []);
  });

  test('values, not text, decide an update: lower("X") where the state says "x", a grown count, a map in another key order', () => {
    const declared = read(`
variable "names" { default = ["a", "b", "c"] }
resource "terraform_data" "x" { input = lower("X") }
resource "terraform_data" "list" {
  count = length(var.names)
  input = upper(var.names[count.index])
}
resource "x" "tags" { tags = { b = 2, a = 1 } }
resource "terraform_data" "unset" {}
`);
    const state = stateOf({
      'terraform_data.x': { id: '1', input: 'x', output: 'x' },
      'terraform_data.list[0]': { id: '2', input: 'A', output: 'A' },
      'terraform_data.list[1]': { id: '3', input: 'B', output: 'B' },
      'x.tags': { id: '4', tags: { a: 1, b: 2 } },
      'terraform_data.unset': { id: '5' },
    });
    assert.deepEqual(configuredChanges({ run, declared, state, unknownArguments: new Map() }), [{ address: 'terraform_data.list[2]', action: 'create' }]);
  });

  test('an argument the code no longer sets is a change (it becomes null); what the provider sets (id, output) is not compared', () => {
    const declared = read('resource "terraform_data" "x" {}\nresource "x" "y" { a = 1 }');
    const state = stateOf({ 'terraform_data.x': { id: '1', input: 'gone', output: 'gone' }, 'x.y': { id: '2', a: 1, b: 'dropped' } });
    assert.deepEqual(configuredChanges({ run, declared, state, unknownArguments: new Map() }), [
      { address: 'terraform_data.x', action: 'update' },
      { address: 'x.y', action: 'update' },
    ]);
    assert.deepEqual(configuredChanges({ run, declared, state: stateOf({ 'terraform_data.x': { id: '1' }, 'x.y': { id: '2', a: 1 } }), unknownArguments: new Map() }), []);
  });

  test('state moved or removed outside a run: the state decides what exists (a2 deleted, a and c created)', () => {
    const declared = read('resource "terraform_data" "a" { input = "a" }\nresource "terraform_data" "b" { input = "b" }\nresource "terraform_data" "c" { input = "c" }');
    const state = stateOf({ 'terraform_data.a2': { id: '1', input: 'a' }, 'terraform_data.b': { id: '2', input: 'b' } });
    assert.deepEqual(configuredChanges({ run, declared, state, unknownArguments: new Map() }), [
      { address: 'terraform_data.a', action: 'create' },
      { address: 'terraform_data.c', action: 'create' },
      { address: 'terraform_data.a2', action: 'delete', actionReason: 'delete_because_no_resource_config' },
    ]);
  });

  test('an unknown argument is unchanged while its fingerprint and the value its apply wrote are; otherwise it updates (a trigger replaces)', () => {
    const text = (who: string) => `
resource "x" "y" { input = unevaluated("${who}") }
resource "terraform_data" "t" { triggers_replace = unevaluated("${who}") }
`;
    const declared = read(text('a'));
    const recorded = (address: string, argument: string, written: unknown) => ({ [argument]: { fingerprint: declared.instances.find((i) => i.address === address)!.unknownFingerprints[argument]!, written } });
    const unknownArguments = new Map([
      ['x.y', recorded('x.y', 'input', 'gen-1')],
      ['terraform_data.t', recorded('terraform_data.t', 'triggers_replace', 'gen-2')],
    ]);
    const state = stateOf({ 'x.y': { id: '1', input: 'gen-1' }, 'terraform_data.t': { id: '2', triggers_replace: 'gen-2' } });
    assert.deepEqual(configuredChanges({ run, declared, state, unknownArguments }), []);
    assert.deepEqual(configuredChanges({ run, declared: read(text('b')), state, unknownArguments }), [
      { address: 'x.y', action: 'update' },
      { address: 'terraform_data.t', action: 'replace' },
    ]);
    assert.deepEqual(configuredChanges({ run, declared, state: stateOf({ 'x.y': { id: '1', input: 'pushed' }, 'terraform_data.t': { id: '2', triggers_replace: 'gen-2' } }), unknownArguments }), [{ address: 'x.y', action: 'update' }], 'a state written since (a push) matches no record');
    assert.deepEqual(configuredChanges({ run, declared, state, unknownArguments: new Map() }), [
      { address: 'x.y', action: 'update' },
      { address: 'terraform_data.t', action: 'replace' },
    ], 'no record (an imported instance): Terraform plans an unknown value as a change');
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
    const state = new Map(first.instances.map((i) => [i.address, { attributes: { id: `id-${i.address}`, ...i.values } }]));
    assert.deepEqual([...state.keys()], ['terraform_data.deploy', 'module.app["a"].x.vm', 'module.app["b"].x.vm']);
    assert.deepEqual(configuredChanges({ run, declared: upload(new Map()), state, unknownArguments: new Map() }), []);
    assert.deepEqual(configuredChanges({ run, declared: upload(new Map<string, unknown>([['release', '2'], ['size', 2], ['names', ['a']]])), state, unknownArguments: new Map() }), [
      { address: 'terraform_data.deploy', action: 'replace' },
      { address: 'module.app["a"].x.vm', action: 'update' },
      { address: 'module.app["b"].x.vm', action: 'delete', actionReason: 'delete_because_no_module' },
    ]);
  });
});

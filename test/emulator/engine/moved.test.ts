// `moved` blocks in the configuration-driven plan: the statements as read (a module's made absolute), where each
// state address goes (resources, instances, module calls, chains, blocked moves), the moves Terraform implies where
// `count` was added or removed, the state renamed for the plan and the apply, and Terraform's error for a move away
// from what the code still declares.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { readConfiguration } from '../../../emulator/src/engine/configuration';
import { impliedMoveStatements, movedAddresses } from '../../../emulator/src/engine/refactoring';
import { planFindings } from '../../../emulator/src/runs/planFindings';
import { stateInstances } from '../../../emulator/src/runs/stateInstances';
import { movedState } from '../../../emulator/src/runs/stateMoves';
import type { TerraformState } from '../../../emulator/src/store/stateVersions';
import type { TerraformParser } from '../../../server/src/model';
import { testParser } from '../../model/helpers';

const files = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([name, text]) => [name, Buffer.from(text)]));
const move = (from: string, to: string) => ({ from, to });

describe('moved blocks', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await testParser();
  });

  test('the statements: root\'s and a called module\'s (behind its path), where each is written', () => {
    const declared = readConfiguration(
      parser,
      files({
        'main.tf': 'module "net" { source = "./net" }\n\nmoved {\n  from = x.a\n  to   = x.b\n}\n',
        'net/main.tf': 'moved {\n  from = y.old\n  to   = y.new\n}\n',
      }),
      new Map(),
    )!;
    assert.deepEqual(declared.moves, [
      { from: 'x.a', to: 'x.b', declaredAt: { file: 'main.tf', line: 3, text: 'moved {' } },
      { from: 'module.net.y.old', to: 'module.net.y.new', declaredAt: { file: 'net/main.tf', line: 1, text: 'moved {' } },
    ]);
  });

  test('where state addresses go: every instance of a resource, one instance, a module call, count added, a chain in any order', () => {
    const held = ['x.a[0]', 'x.a[1]', 'x.one["k"]', 'module.m[0].x.y', 'x.single', 'x.first', 'x.ab'];
    const { renames, blocked } = movedAddresses(held, [
      move('x.a', 'x.b'),
      move('x.one["k"]', 'x.two["k"]'),
      move('module.m', 'module.n'),
      move('x.single', 'x.single[0]'),
      move('x.second', 'x.third'),
      move('x.first', 'x.second'),
    ]);
    assert.deepEqual(Object.fromEntries(renames), {
      'x.a[0]': 'x.b[0]',
      'x.a[1]': 'x.b[1]',
      'x.one["k"]': 'x.two["k"]',
      'module.m[0].x.y': 'module.n[0].x.y',
      'x.single': 'x.single[0]',
      'x.first': 'x.third',
    });
    assert.deepEqual(blocked, []);
  });

  test('a move whose destination the state already holds is blocked; a cycle ends', () => {
    assert.deepEqual(movedAddresses(['x.a', 'x.b'], [move('x.a', 'x.b')]).renames.size, 0);
    assert.deepEqual(movedAddresses(['x.a'], [move('x.a', 'x.b'), move('x.b', 'x.a')]), { renames: new Map(), blocked: [] }, 'round to where it started: no move');
  });

  test('blocked moves (ApplyMoves): an instance by its destination, a resource by any instance of the destination resource, a module instance by the destination one; each once, where it stuck along a chain', () => {
    const held = ['x.a', 'x.b', 'x.c[0]', 'x.c[1]', 'x.d[5]', 'module.m.y.z', 'module.n.y.other', 'x.e[0]', 'x.e', 'x.f', 'x.g'];
    const { renames, blocked } = movedAddresses(held, [
      move('x.a', 'x.b'),
      move('x.c', 'x.d'),
      move('module.m', 'module.n'),
      move('x.e[0]', 'x.e'),
      move('x.f', 'x.h'),
      move('x.h', 'x.g'),
    ]);
    assert.deepEqual(Object.fromEntries(renames), { 'x.f': 'x.h' }, 'x.c[1] stays too: x.d[1] is free, but the resource x.d is not');
    assert.deepEqual(blocked, [
      { actual: 'x.a', wanted: 'x.b' },
      { actual: 'x.c', wanted: 'x.d' },
      { actual: 'module.m', wanted: 'module.n' },
      { actual: 'x.e[0]', wanted: 'x.e' },
      { actual: 'x.h', wanted: 'x.g' },
    ]);
  });

  test('"Unresolved resource instance address changes": Terraform\'s warning listing the blocked moves, left out when the plan errors', () => {
    const blocked = [{ actual: 'x.a', wanted: 'x.b' }, { actual: 'x.c[0]', wanted: 'x.c' }];
    const findings = planFindings([], readConfiguration(parser, files({ 'main.tf': 'resource "x" "b" {}\n' }), new Map())!, blocked);
    assert.deepEqual(findings, [
      {
        severity: 'warning',
        summary: 'Unresolved resource instance address changes',
        detail: `Terraform tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:
  - x.a could not move to x.b
  - x.c[0] could not move to x.c

Terraform has planned to destroy these objects. If Terraform's proposed changes aren't appropriate, you must first resolve the conflicts using the "terraform state" subcommands and then create a new plan.`,
      },
    ]);
    const invalid = readConfiguration(parser, files({ 'main.tf': 'resource "x" "a" {}\nresource "x" "b" {}\n\nmoved {\n  from = x.a\n  to   = x.b\n}\n' }), new Map())!;
    assert.deepEqual(planFindings([], invalid, blocked).map((f) => f.summary), ['Moved object still exists']);
  });

  test('implied moves (ImpliedMoveStatements): no key into [0] where count was added, [0] out where it was removed, none for for_each', () => {
    const declared = readConfiguration(
      parser,
      files({
        'main.tf': `resource "x" "now_count" { count = 2 }
resource "x" "formerly_count" {}
resource "x" "now_each" { for_each = toset(["k"]) }
resource "x" "formerly_each" {}
resource "x" "unevaluated" { count = length(x.formerly_count.list) }
module "m" { source = "./m" }
`,
        'm/main.tf': 'resource "y" "now_count" { count = 1 }\n',
      }),
      new Map(),
    )!;
    const held = ['x.now_count', 'x.formerly_count[0]', 'x.formerly_count[1]', 'x.now_each', 'x.formerly_each["k"]', 'x.unevaluated', 'x.gone', 'module.m.y.now_count'];
    assert.deepEqual(impliedMoveStatements(held, declared.repetition, declared.moves), [
      move('x.now_count', 'x.now_count[0]'),
      move('x.formerly_count[0]', 'x.formerly_count'),
      move('module.m.y.now_count', 'module.m.y.now_count[0]'),
    ]);
  });

  test('implied moves: none for a resource an explicit moved block names at either end; one onto an address the state holds is blocked', () => {
    const declared = readConfiguration(
      parser,
      files({ 'main.tf': 'resource "x" "a" {}\nresource "x" "b" { count = 2 }\nresource "x" "c" {}\n\nmoved {\n  from = x.a[1]\n  to   = x.a\n}\nmoved {\n  from = x.old\n  to   = x.b[1]\n}\n' }),
      new Map(),
    )!;
    assert.deepEqual(impliedMoveStatements(['x.a[0]', 'x.a[1]', 'x.b', 'x.c[0]'], declared.repetition, declared.moves), [move('x.c[0]', 'x.c')]);
    const held = ['x.c', 'x.c[0]'];
    const implied = impliedMoveStatements(held, declared.repetition, declared.moves);
    assert.deepEqual(implied, [move('x.c[0]', 'x.c')], 'Terraform implies it and leaves the conflict to ApplyMoves');
    assert.equal(movedAddresses(held, implied).renames.size, 0, 'the instance already at x.c stays; x.c[0] is not moved');
  });

  test('the state renamed: the instance joins its new resource with its key and attributes, an emptied resource goes', () => {
    const state: TerraformState = {
      version: 4,
      serial: 3,
      lineage: 'l',
      resources: [
        { mode: 'managed', type: 'terraform_data', name: 'old', provider: 'provider["terraform.io/builtin/terraform"]', instances: [{ schema_version: 0, attributes: { id: 'i-1' } }] },
        { mode: 'managed', type: 'terraform_data', name: 'list', provider: 'provider["terraform.io/builtin/terraform"]', instances: [{ index_key: 0, attributes: { id: 'i-2' } }] },
      ],
    };
    const moved = movedState(state, new Map([['terraform_data.old', 'terraform_data.list[1]']]));
    assert.deepEqual(moved.resources, [
      { mode: 'managed', type: 'terraform_data', name: 'list', provider: 'provider["terraform.io/builtin/terraform"]', instances: [{ index_key: 0, attributes: { id: 'i-2' } }, { index_key: 1, schema_version: 0, attributes: { id: 'i-1' } }] },
    ]);
    assert.deepEqual([...stateInstances(moved).keys()], ['terraform_data.list[0]', 'terraform_data.list[1]']);
    assert.equal(state.resources!.length, 2, 'the stored state is left as it was');
  });

  test('"Moved object still exists": a move away from a declared resource or instance, not from a count-less instance that count replaced', () => {
    const declared = readConfiguration(
      parser,
      files({ 'main.tf': 'resource "x" "kept" {}\nresource "x" "counted" { count = 2 }\n\nmoved {\n  from = x.kept\n  to   = x.other\n}\nmoved {\n  from = x.counted\n  to   = x.counted[0]\n}\n' }),
      new Map(),
    )!;
    const findings = planFindings([], declared);
    assert.deepEqual(findings.map((f) => [f.summary, f.location?.line]), [['Moved object still exists', 4]]);
    assert.equal(findings[0]!.detail, 'This statement declares a move from x.kept, but that resource is still declared at main.tf:1,1.\n\nChange your configuration so that this resource will be declared as x.other instead.');
  });
});

// The built-in functions the engine evaluates (engine/functions.ts), called through the evaluator as a
// configuration calls them. Every expected value and message below is what Terraform 1.11 gave for the same call
// (`terraform console` and `terraform plan`).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Node } from 'web-tree-sitter';
import { evaluate, type Scope } from '../../../emulator/src/engine/evaluate';
import { collectProblems } from '../../../emulator/src/engine/evaluationProblems';
import { unknown } from '../../../emulator/src/engine/values';
import { loadTerraformParser, type TerraformParser } from '../../../server/src/model';
import { attributeValue, bodyItems } from '../../../server/src/model/syntaxTree';

const variables: Record<string, unknown> = { obj: { a: 1 }, list: ['x', 'y'], empty: [] };
const scope: Scope = {
  variable: (name) => (Object.hasOwn(variables, name) ? (variables[name] as never) : unknown),
  local: () => unknown,
  module: () => unknown,
  modulePath: '.',
};

describe('built-in functions', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await loadTerraformParser();
  });
  /** The expression's value and the problems met, evaluated as `value = <text>` in a file. */
  const run = (text: string) => {
    const tree = parser.parse(`value = ${text}\n`);
    try {
      const node = attributeValue(bodyItems(tree.rootNode)[0]!) as Node;
      const [value, problems] = collectProblems(() => evaluate(node, scope));
      return { value, problems: problems.map((p): unknown => (p.kind === 'function' ? p.problem : p.kind)) };
    } finally {
      tree.delete();
    }
  };
  const value = (text: string) => {
    const { value, problems } = run(text);
    assert.deepEqual(problems, [], text);
    return value;
  };

  test('values, as Terraform computes them', () => {
    const cases: Array<[string, unknown]> = [
      ['substr("abc", 5, 1)', ''],
      ['substr("hello", -3, -1)', 'llo'],
      ['substr("hello", 1, 2)', 'el'],
      ['element(["a","b"], 3)', 'b'],
      ['flatten([["a"], "b", [["c"]]])', ['a', 'b', 'c']],
      ['coalesce(1, "a")', '1'],
      ['coalesce("", "b")', 'b'],
      ['coalesce(null, 2)', 2],
      ['replace("hello world", "/(o)/", "[$1]")', 'hell[o] w[o]rld'],
      ['replace("a-b-c", "-", "+")', 'a+b+c'],
      ['regex("(\\\\d+)-(\\\\d+)", "ab 12-34")', ['12', '34']],
      ['regex("(?P<x>\\\\d+)", "ab 12-34")', { x: '12' }],
      ['regexall("\\\\d", "a1b2")', ['1', '2']],
      ['regex("[a-z]+", "123abc")', 'abc'],
      ['keys({b=1, a=2})', ['a', 'b']],
      ['values({b=1, a=2})', [2, 1]],
      ['distinct(["a","b","a"])', ['a', 'b']],
      ['compact(["a","",null,"c"])', ['a', 'c']],
      ['split(",", "")', ['']],
      ['split("", "abc")', ['a', 'b', 'c']],
      ['trimspace("  x \\n")', 'x'],
      ['tostring(1.5)', '1.5'],
      ['tostring(true)', 'true'],
      ['tonumber("1e3")', 1000],
      ['jsondecode("{\\"a\\":[1,true,null]}")', { a: [1, true, null] }],
      ['base64encode("héllo")', 'aMOpbGxv'],
      ['base64decode("aGVsbG8=")', 'hello'],
      ['sha256("hello")', '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'],
      ['min(3, "1", 2)', 1],
      ['max(1.5, 2)', 2],
      ['abs(-3.2)', 3.2],
      ['ceil(1.2)', 2],
      ['floor(-1.2)', -2],
      ['range(3)', [0, 1, 2]],
      ['range(1, 4)', [1, 2, 3]],
      ['range(5, 1, -2)', [5, 3]],
      ['range(0, 1, 0.25)', [0, 0.25, 0.5, 0.75]],
      ['zipmap(["a","b"], [1,2])', { a: 1, b: 2 }],
      ['can(regex("^a", "abc"))', true],
      ['startswith("abc", "ab")', true],
      ['endswith("abc", "bc")', true],
      ['strcontains("abc", "d")', false],
      ['index(["a","b"], "b")', 1],
      ['contains(["a", 1], 1)', true],
      ['contains(["a"], 1)', false],
      ['lookup({a="x"}, "b", "d")', 'd'],
      ['merge({a=1}, null, {b=2})', { a: 1, b: 2 }],
      ['length("héllo")', 5],
      ['join("-", ["a", 1, true])', 'a-1-true'],
      ['upper(5)', '5'],
      ['lower("ÀB")', 'àb'],
      ['coalescelist([], ["a"])', ['a']],
      ['tomap({a=1, b="x"})', { a: '1', b: 'x' }],
      ['toset(["b","a","b"])', ['a', 'b']],
      ['tolist(["a", 1])', ['a', '1']],
      ['element(["a"], "1")', 'a'],
      ['keys({})', []],
      ['tostring(null)', null],
      ['toset(["a", 1])', ['1', 'a']],
      ['compact(["a", 1])', ['a', '1']],
    ];
    for (const [text, expected] of cases) assert.deepEqual(value(text), expected, text);
  });

  test('try and can: the first argument without an error, and whether there is one', () => {
    assert.equal(value('try(var.obj.missing, "fallback")'), 'fallback');
    assert.equal(value('try(var.list[5], var.list[1])'), 'y');
    assert.equal(value('try(element(var.empty, 0), "none")'), 'none');
    assert.equal(value('can(var.obj.a)'), true);
    assert.equal(value('can(var.obj.b)'), false);
    assert.equal(value('can(tonumber("x"))'), false);
    assert.equal(value('try(var.unknown_value, "x")'), unknown, 'an unknown first argument might still fail: unknown');
  });

  test('bad arguments: Terraform\'s messages, naming the parameter', () => {
    const cases: Array<[string, unknown]> = [
      ['upper(null)', { kind: 'argument', parameter: 'str', index: 0, message: 'argument must not be null' }],
      ['abs("x")', { kind: 'argument', parameter: 'num', index: 0, message: 'a number is required' }],
      ['contains("x", "y")', { kind: 'call', message: 'argument must be list, tuple, or set' }],
      ['merge("x")', { kind: 'call', message: 'arguments must be maps or objects, got "string"' }],
      ['element("x", 0)', { kind: 'call', message: 'cannot read elements from string' }],
      ['element([], 0)', { kind: 'call', message: 'cannot use element function with an empty list' }],
      ['distinct("x")', { kind: 'argument', parameter: 'list', index: 0, message: 'list of any single type required' }],
      ['compact(["a", ["b"]])', { kind: 'argument', parameter: 'list', index: 0, message: 'element 1: string required' }],
      ['join(",", ["a", null])', { kind: 'argument', parameter: 'lists', index: 1, message: 'element 1 is null; cannot concatenate null values' }],
      ['split(",", ["a"])', { kind: 'argument', parameter: 'str', index: 1, message: 'string required' }],
      ['range()', { kind: 'call', message: 'must have one, two, or three arguments' }],
      ['jsondecode("")', { kind: 'call', message: 'EOF' }],
      ['base64decode("/w==")', { kind: 'call', message: 'the result of decoding the provided string is not valid UTF-8' }],
      ['max(1, "2x")', { kind: 'argument', parameter: 'numbers', index: 1, message: 'a number is required' }],
      ['tonumber(true)', { kind: 'argument', parameter: 'v', index: 0, message: 'cannot convert bool to number' }],
      ['tonumber("0x10")', { kind: 'argument', parameter: 'v', index: 0, message: 'cannot convert "0x10" to number; given string must be a decimal representation of a number' }],
      ['index("x", "y")', { kind: 'call', message: 'argument must be a list or tuple' }],
      ['index(["a"], "z")', { kind: 'call', message: 'item not found' }],
      ['regexall("(", "x")', { kind: 'argument', parameter: 'pattern', index: 0, message: 'invalid regexp pattern: missing closing ) in (' }],
      ['regex("(?P<x>a)(b)", "ab")', { kind: 'argument', parameter: 'pattern', index: 0, message: 'invalid regexp pattern: cannot mix both named and unnamed capture groups' }],
      ['regex("[0-9]+", "abc")', { kind: 'call', message: 'pattern did not match any part of the given string' }],
      ['replace("a", "/[/", "b")', { kind: 'call', message: 'error parsing regexp: missing closing ]: `[`' }],
      ['zipmap("a", [])', { kind: 'argument', parameter: 'keys', index: 0, message: 'list of string required' }],
      ['zipmap(["a"], [1, 2])', { kind: 'call', message: 'number of keys (1) does not match number of values (2)' }],
      ['startswith(1, ["a"])', { kind: 'argument', parameter: 'prefix', index: 1, message: 'string required' }],
      ['coalesce("", null)', { kind: 'call', message: 'no non-null, non-empty-string arguments' }],
      ['coalescelist("a")', { kind: 'call', message: 'coalescelist arguments must be lists or tuples' }],
      ['coalescelist([], [])', { kind: 'call', message: 'no non-null arguments' }],
      ['tolist("a")', { kind: 'argument', parameter: 'v', index: 0, message: 'cannot convert string to list of any single type' }],
      ['tomap(["a"])', { kind: 'argument', parameter: 'v', index: 0, message: 'cannot convert tuple to map of any single type' }],
      ['tostring(["a"])', { kind: 'argument', parameter: 'v', index: 0, message: 'cannot convert tuple to string' }],
      ['lookup({ a = 1 }, "z")', { kind: 'argument', parameter: 'inputMap', index: 0, message: 'the given object has no attribute "z"' }],
      ['lookup({a=1}, "a", "d", "e")', { kind: 'call', message: 'lookup() takes two or three arguments, got 4' }],
      ['keys("x")', { kind: 'argument', parameter: 'inputMap', index: 0, message: 'must have map or object type' }],
      ['try()', { kind: 'call', message: 'at least one argument is required' }],
      ['nosuch(1)', { kind: 'unknown-function' }],
      ['length(5)', { kind: 'call', message: 'argument must be a string, a collection type, or a structural type' }],
      ['merge(["a"])', { kind: 'call', message: 'arguments must be maps or objects, got "tuple"' }],
      ['join(",")', { kind: 'call', message: 'at least one list is required' }],
      ['contains(["a"], null)', { kind: 'argument', parameter: 'value', index: 1, message: 'argument must not be null' }],
      ['index(["a"], null)', { kind: 'argument', parameter: 'value', index: 1, message: 'argument must not be null' }],
      ['split(",", null)', { kind: 'argument', parameter: 'str', index: 1, message: 'argument must not be null' }],
      ['range(1, "x")', { kind: 'argument', parameter: 'params', index: 1, message: 'a number is required' }],
      ['concat(["a"], "b")', { kind: 'argument', parameter: 'seqs', index: 1, message: 'all arguments must be lists or tuples; got string' }],
      ['values("x")', { kind: 'call', message: 'values() requires a map as the first argument' }],
      ['jsondecode("[1,")', { kind: 'call', message: 'EOF' }],
    ];
    for (const [text, expected] of cases) {
      const { value, problems } = run(text);
      assert.equal(value, unknown, text);
      assert.deepEqual(problems, [expected], text);
    }
  });

  test('a function the engine does not evaluate is unknown, not an error', () => {
    assert.deepEqual(run('cidrsubnet("10.0.0.0/16", 8, 1)'), { value: unknown, problems: [] });
  });
});

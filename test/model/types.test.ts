import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkValueAgainstType, extractTerraformFile, parseTypeExpression, readLiteral, typeToString } from '../../server/src/model';
import type { LiteralValue, TerraformType } from '../../server/src/model';
import { testParser } from './helpers';

async function typeOf(source: string): Promise<TerraformType> {
  const parser = await testParser();
  const tree = parser.parse(`type = ${source}\n`);
  try {
    const expression = tree.rootNode.descendantsOfType('attribute')[0].namedChildren.find((child) => child?.type === 'expression');
    assert.ok(expression);
    return parseTypeExpression(expression);
  } finally {
    tree.delete();
  }
}

async function valueOf(source: string): Promise<LiteralValue> {
  const parser = await testParser();
  const tree = parser.parse(`value = ${source}\n`);
  try {
    const expression = tree.rootNode.descendantsOfType('attribute')[0].namedChildren.find((child) => child?.type === 'expression');
    const literal = expression ? readLiteral(expression) : undefined;
    assert.ok(literal, `${source} is a literal`);
    return literal.value;
  } finally {
    tree.delete();
  }
}

describe('type expressions', () => {
  test('primitives, collections and structural types', async () => {
    assert.deepEqual(await typeOf('string'), { kind: 'string' });
    assert.deepEqual(await typeOf('list(number)'), { kind: 'list', element: { kind: 'number' } });
    assert.deepEqual(await typeOf('tuple([bool, number])'), { kind: 'tuple', elements: [{ kind: 'bool' }, { kind: 'number' }] });
    assert.deepEqual(await typeOf('map(object({ port = number, public = optional(bool, false) }))'), {
      kind: 'map',
      element: {
        kind: 'object',
        attributes: [
          { name: 'port', type: { kind: 'number' }, optional: false },
          { name: 'public', type: { kind: 'bool' }, optional: true, default: { value: false } },
        ],
      },
    });
  });

  test('legacy quoted types are understood', async () => {
    assert.deepEqual(await typeOf('"string"'), { kind: 'string' });
    assert.deepEqual(await typeOf('"list"'), { kind: 'list', element: { kind: 'any' } });
  });

  test('unknown or half-typed constraints become `unknown` with their text, never an exception', async () => {
    assert.deepEqual(await typeOf('strng'), { kind: 'unknown', text: 'strng' });
    assert.deepEqual(await typeOf('list()'), { kind: 'unknown', text: 'list()' });
    const parser = await testParser();
    const tree = parser.parse('variable "half" {\n  type = map(object({ a = \n}\n');
    const [variable] = extractTerraformFile(tree, '/m/variables.tf').variables;
    tree.delete();
    assert.equal(variable.name, 'half');
    assert.equal(variable.type?.parsed.kind ?? 'unknown', 'unknown');
  });

  test('typeToString spells types canonically', async () => {
    assert.equal(typeToString(await typeOf('map(object({port=number,public=optional(bool,false)}))')), 'map(object({ port = number, public = optional(bool, false) }))');
    assert.equal(typeToString(await typeOf('set( string )')), 'set(string)');
  });
});

describe('does a value fit a type', () => {
  test('Terraform conversions: numeric and bool strings convert, "three" does not fit number', async () => {
    const number = await typeOf('number');
    assert.equal(checkValueAgainstType('3', number), undefined);
    assert.equal(checkValueAgainstType(-2.5, number), undefined);
    const problem = checkValueAgainstType('three', number);
    assert.ok(problem);
    assert.equal(problem.message, 'number required, found string "three"');
    assert.equal(checkValueAgainstType('true', await typeOf('bool')), undefined);
    assert.ok(checkValueAgainstType('yes', await typeOf('bool')));
    assert.equal(checkValueAgainstType(42, await typeOf('string')), undefined, 'numbers convert to strings');
    assert.ok(checkValueAgainstType([1], await typeOf('string')));
    assert.equal(checkValueAgainstType(null, number), undefined, 'null fits any type (nullable decides)');
  });

  test('collections and objects report the path of the first mismatch', async () => {
    const services = await typeOf('map(object({ port = number, public = optional(bool) }))');
    assert.equal(checkValueAgainstType(await valueOf('{ web = { port = 80 } }'), services), undefined, 'optional attributes may be left out');
    assert.equal(checkValueAgainstType(await valueOf('{ web = { port = 80, extra = 1 } }'), services), undefined, 'extra attributes are dropped');
    assert.deepEqual(checkValueAgainstType(await valueOf('{ web = { port = "http" } }'), services)?.path, '["web"].port');
    assert.equal(checkValueAgainstType(await valueOf('{ web = { public = true } }'), services)?.message, 'attribute "port" is required in ["web"]');
    assert.equal(checkValueAgainstType(await valueOf('["a", "b"]'), await typeOf('list(string)')), undefined);
    assert.equal(checkValueAgainstType(await valueOf('["a", ["b"]]'), await typeOf('list(string)'))?.path, '[1]');
    assert.match(checkValueAgainstType(await valueOf('[true]'), await typeOf('tuple([bool, number])'))?.message ?? '', /needs 2 elements, found 1/);
    assert.ok(checkValueAgainstType(await valueOf('{ a = 1 }'), await typeOf('list(number)')));
  });

  test('any and unknown types accept everything', async () => {
    assert.equal(checkValueAgainstType(await valueOf('{ a = [1] }'), await typeOf('any')), undefined);
    assert.equal(checkValueAgainstType(await valueOf('{ a = [1] }'), await typeOf('strng')), undefined);
  });

  test('sensitive values are described by kind only, and long values are cut', async () => {
    const problem = checkValueAgainstType('hunter2-demo', await typeOf('number'), { hideValues: true });
    assert.ok(problem);
    assert.ok(!problem.message.includes('hunter2'), problem.message);
    assert.equal(problem.found, 'string');
    const long = checkValueAgainstType('x'.repeat(100), await typeOf('number'));
    assert.ok(long && long.found.length < 40, long?.found);
  });
});

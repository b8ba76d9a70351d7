import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readLiteral } from '../../server/src/model';
import type { LiteralValue } from '../../server/src/model';
import { testParser } from './helpers';

/** The literal of `value = <source>` in a one-line file. */
async function literalOf(source: string): Promise<{ value: LiteralValue } | undefined> {
  const parser = await testParser();
  const tree = parser.parse(`value = ${source}\n`);
  try {
    const expression = tree.rootNode.descendantsOfType('attribute')[0].namedChildren.find((child) => child?.type === 'expression');
    assert.ok(expression, `no expression parsed from ${source}`);
    return readLiteral(expression);
  } finally {
    tree.delete();
  }
}

describe('HCL literals', () => {
  test('scalars, including negative and exponent numbers and null', async () => {
    assert.deepEqual(await literalOf('"eu-west-1"'), { value: 'eu-west-1' });
    assert.deepEqual(await literalOf('42'), { value: 42 });
    assert.deepEqual(await literalOf('-1.5e3'), { value: -1500 });
    assert.deepEqual(await literalOf('true'), { value: true });
    assert.deepEqual(await literalOf('false'), { value: false });
    assert.deepEqual(await literalOf('null'), { value: null });
    assert.deepEqual(await literalOf('(7)'), { value: 7 });
  });

  test('string escapes are decoded, and $${ / %%{ stand for literal ${ / %{', async () => {
    const source = String.raw`"a\n\t\"q\" \\ \u00e9 \U0001F600 ` + '$${x} %%{y}"';
    assert.deepEqual(await literalOf(source), { value: 'a\n\t"q" \\ é 😀 $' + '{x} %{y}' });
  });

  test('heredocs, with <<- stripping the common indent', async () => {
    assert.deepEqual(await literalOf('<<EOT\nline one\n  line two\nEOT'), { value: 'line one\n  line two\n' });
    assert.deepEqual(await literalOf('<<-EOT\n    first\n      second\n    EOT'), { value: 'first\n  second\n' });
  });

  test('tuples and objects, with bare and quoted keys, nested', async () => {
    assert.deepEqual(await literalOf('[1, "two", [true], null]'), { value: [1, 'two', [true], null] });
    assert.deepEqual(await literalOf('{ web = { port = 80, public = true }, "db-1" = { port = 5432 } }'), {
      value: { web: { port: 80, public: true }, 'db-1': { port: 5432 } },
    });
    const proto = await literalOf('{ "__proto__" = 1 }');
    assert.ok(proto && typeof proto.value === 'object' && proto.value !== null);
    assert.ok(Object.hasOwn(proto.value, '__proto__'), '__proto__ stays an ordinary key');
  });

  test('computed values are not literals', async () => {
    for (const source of ['var.region', '"${var.name}-x"', 'upper("a")', '[1, var.x]', '{ a = local.b }', '1 + 2', '<<EOT\n${var.a}\nEOT', '{ (var.k) = 1 }']) {
      assert.equal(await literalOf(source), undefined, source);
    }
  });

  test('nesting deeper than the guard is refused instead of overflowing the stack', async () => {
    const deep = '['.repeat(500) + ']'.repeat(500);
    assert.equal(await literalOf(deep), undefined);
  });
});

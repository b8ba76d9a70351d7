// Terraform's `format` as the engine evaluates it: every verb Terraform has, with its flags, width, precision and
// argument index, gives Terraform's text; a spec Terraform rejects, or a rounding the emulator cannot decide, is
// "known after apply", never a wrong value. Expected texts are Go's (go-cty's FormatFunc over fmt and big.Float).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { callFunction } from '../../../emulator/src/engine/functions';
import { unknown } from '../../../emulator/src/engine/values';
import type { LiteralValue } from '../../../server/src/model/hclLiterals';

const format = (spec: string, ...args: LiteralValue[]) => callFunction('format', [spec, ...args]);

describe('configuration engine: format', () => {
  test('integers: zero padding, width, left alignment, signs, precision as least digits, bases and prefixes', () => {
    assert.equal(format('%03d', 7), '007');
    assert.equal(format('%5d|%-5d|', 42, 42), '   42|42   |');
    assert.equal(format('%+d % d %d', 5, 5, -5), '+5  5 -5');
    assert.equal(format('%05d', -42), '-0042');
    assert.equal(format('%.3d|%5.3d|%05.3d', 7, 7, 7), '007|  007|  007');
    assert.equal(format('%b %o %x %X %#x %#o %#b', 5, 8, 255, 255, 255, 8, 5), '101 10 ff FF 0xff 010 0b101');
    assert.equal(format('%d', '12'), '12');
  });

  test('floats: %f %e %g with precision, width and flags; %v of a number is its shortest %g', () => {
    assert.equal(format('%5.2f|%-8.3f|%08.3f', 3.14159, 3.14159, -3.14159), ' 3.14|3.142   |-003.142');
    assert.equal(format('%f %e %E', 1, 1234.5678, 1234.5678), '1.000000 1.234568e+03 1.234568E+03');
    assert.equal(format('%g %g %g %.3g %G', 0.00001, 100000, 1000000, 1234.5, 1e-7), '1e-05 100000 1e+06 1.23e+03 1E-07');
    assert.equal(format('%v %v %v', 1.5, 1000000, 0), '1.5 1e+06 0');
    assert.equal(format('%.1f%%', 99.96), '100.0%'); // the carry adds a digit
  });

  test('a half is rounded to even when the value is exactly a binary fraction, as Go does', () => {
    assert.equal(format('%.0f %.0f %.0f %.1f', 0.5, 2.5, 3.5, 0.25), '0 2 4 0.2');
  });

  test('strings: width and precision in characters as seen, %q quotes as JSON, %s of a number in full', () => {
    assert.equal(format('%-5s|%5s|%.2s', 'ab', 'ab', 'héllo'), 'ab   |   ab|hé');
    assert.equal(format('%05s', 'ab'), '000ab');
    assert.equal(format('%q', '<a> "b"'), '"\\u003ca\\u003e \\"b\\""');
    assert.equal(format('%s %s %s', 1e21, true, 0.5), '1000000000000000000000 true 0.5');
    assert.equal(format('%[2]s %[1]s %s', 'a', 'b'), 'b a b');
  });

  test('%v and %#v write JSON for anything but a string or number (keys sorted); %t a bool and ignores width', () => {
    assert.equal(format('%v', { b: 1, a: ['x', null] }), '{"a":["x",null],"b":1}');
    assert.equal(format('%#v %v', 'x', null), '"x" null');
    assert.equal(format('%5t', 'true'), 'true');
  });

  test('what Terraform rejects, and roundings only Go\'s exact value decides, are unknown', () => {
    for (const [spec, ...args] of [
      ['%d', 7.5], // not an integer
      ['%d', 1, 2], // too many arguments
      ['%s %s', 'a'], // too few
      ['%[3]s', 'a'], // index out of range
      ['%y', 1], // no such verb
      ['50%', 1], // a lone %
      ['%s', null], // null only for %v
      ['%s', ['a']], // a list is not a string
      ['%t', 1], // a number is not a bool
      ['%.1f', 0.15], // 0.15 is not a binary fraction: its half is decided by bits a double lacks
      ['%.2f', 1.005],
    ] as Array<[string, ...LiteralValue[]]>) {
      assert.equal(format(spec, ...args), unknown, `format(${JSON.stringify(spec)}, ${JSON.stringify(args)})`);
    }
  });
});

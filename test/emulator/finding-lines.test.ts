// The plain-text plan log (structured run output off) draws a finding as Terraform's boxed diagnostic: the
// "in <block>" context, the line number right-aligned in four columns, then the snippet's "while calling" and
// "var.x is …" lines, as the CLI draws them from a structured log.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findingLines } from '../../emulator/src/runs/configurationCheck';

test('a failed call with the values it read, boxed as Terraform prints it', () => {
  const lines = findingLines({
    severity: 'error',
    summary: 'Error in function call',
    detail: 'Call to function "index" failed: item not found.',
    location: { file: 'main.tf', line: 12, text: '  value = index(var.names, var.pick)', context: 'output "o"' },
    values: [{ traversal: 'var.pick', statement: 'is "z"' }],
    functionCall: { calledAs: 'index', params: ['list', 'value'] },
  });
  assert.deepEqual(lines, [
    '╷',
    '│ Error: Error in function call',
    '│',
    '│   on main.tf line 12, in output "o":',
    '│   12:   value = index(var.names, var.pick)',
    '│     ├────────────────',
    '│     │ while calling index(list, value)',
    '│     │ var.pick is "z"',
    '│',
    '│ Call to function "index" failed: item not found.',
    '╵',
  ]);
});

test('a variadic parameter is written with "...", a one-digit line padded to four columns', () => {
  const lines = findingLines({
    severity: 'error',
    summary: 'Invalid function argument',
    detail: 'x',
    location: { file: 'main.tf', line: 2, text: 'a = join(",", [["x"]])' },
    functionCall: { calledAs: 'join', params: ['separator'], variadic: 'lists' },
  });
  assert.equal(lines[3], '│   on main.tf line 2:');
  assert.equal(lines[4], '│    2: a = join(",", [["x"]])');
  assert.equal(lines[6], '│     │ while calling join(separator, lists...)');
});

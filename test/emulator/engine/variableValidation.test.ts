// Variable validation rules (runs/variableValidation.ts) through the configuration check a plan runs: which values
// fail, where Terraform points, the "var.x is …" lines, and which rules Terraform never reaches. Expectations were
// read off Terraform 1.11 planning the same code.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { checkConfiguration } from '../../../emulator/src/runs/configurationCheck';
import { compactValue } from '../../../emulator/src/runs/variableValidation';
import type { Variable } from '../../../emulator/src/store/model';
import { loadTerraformParser, type TerraformParser } from '../../../server/src/model';

const workspaceVariable = (key: string, value: string, extra: Partial<Variable> = {}): Variable => ({
  id: `var-${key}`, workspaceId: 'ws-1', key, value, description: null, category: 'engine', hcl: false, sensitive: false, createdAt: new Date(0), versionId: 'v1', ...extra,
});

describe('variable validation rules', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await loadTerraformParser();
  });
  const check = (code: string, workspaceVariables: Variable[] = [], runVariables: Array<{ key: string; value: string }> = []) =>
    checkConfiguration({ parser, files: new Map([['main.tf', Buffer.from(code)]]), workspaceVariables, runVariables }).filter((finding) => finding.severity === 'error');

  const port = `variable "port" {
  type    = number
  default = 80
  validation {
    condition     = var.port > 1024
    error_message = "Port \${var.port} is privileged."
  }
}
`;

  test('a default that fails: the declaration, the value read, the message and the rule\'s place', () => {
    const [finding, ...others] = check(port);
    assert.equal(others.length, 0);
    assert.equal(finding!.summary, 'Invalid value for variable');
    assert.equal(finding!.detail, 'Port 80 is privileged.\n\nThis was checked by the validation rule at main.tf:4,3-13.');
    assert.deepEqual(finding!.location, { file: 'main.tf', line: 1, text: 'variable "port" {', columns: { start: 1, end: 16 } });
    assert.deepEqual(finding!.values, [{ traversal: 'var.port', statement: 'is 80' }]);
  });

  test('a workspace value (text, converted to the declared number) that passes, and one that fails', () => {
    assert.deepEqual(check(port, [workspaceVariable('port', '8080')]), []);
    assert.deepEqual(check(port, [workspaceVariable('port', '443')]).map((f) => f.values), [[{ traversal: 'var.port', statement: 'is 443' }]]);
  });

  test('sensitive and run values are never shown, nor a message that reads them', () => {
    for (const [variables, runs] of [[[workspaceVariable('port', '22', { sensitive: true })], []], [[], [{ key: 'port', value: '22' }]]] as const) {
      const [finding] = check(port, [...variables], [...runs]);
      assert.deepEqual(finding!.values, []);
      assert.match(finding!.detail, /^The error message included a sensitive value, so it will not be displayed\./);
      assert.doesNotMatch(JSON.stringify(finding), /22/);
    }
  });

  test('a rule reading a variable that failed its own rule is not checked; a null result is an invalid rule', () => {
    const code = `variable "a" {
  default = "x"
  validation {
    condition     = var.a == "y"
    error_message = "a must be y."
  }
}
variable "b" {
  default = "x"
  validation {
    condition     = var.b == "\${var.a}!"
    error_message = "b must equal a."
  }
}
variable "c" {
  default = null
  validation {
    condition     = var.c
    error_message = "never shown"
  }
}
`;
    const findings = check(code);
    assert.deepEqual(
      findings.map((f) => `${f.summary}: ${f.detail.split('\n')[0]}`),
      ['Invalid value for variable: a must be y.', 'Invalid variable validation result: Validation condition expression must return either true or false, not null.'],
    );
    assert.deepEqual(findings[1]!.location, { file: 'main.tf', line: 18, text: '    condition     = var.c', context: 'variable "c"' });
    assert.deepEqual(findings[1]!.values, [{ traversal: 'var.c', statement: 'is null' }]);
  });

  test('rules are not reached while other errors stop the plan first', () => {
    const failing = check(`${port}output "o" { value = var.undeclared }\n`);
    assert.deepEqual(failing.map((f) => f.summary), ['Reference to undeclared input variable']);
  });

  test('compact values as Terraform words them', () => {
    assert.equal(compactValue('prod', { kind: 'string' }), '"prod"');
    assert.equal(compactValue(1.5, { kind: 'number' }), '1.5');
    assert.equal(compactValue(['a', 'b'], { kind: 'list', element: { kind: 'string' } }), 'list of string with 2 elements');
    assert.equal(compactValue({ a: 'b' }, { kind: 'map', element: { kind: 'string' } }), 'map of string with 1 element');
    assert.equal(compactValue([], undefined), 'empty tuple');
    assert.equal(compactValue({ a: 1 }, undefined), 'object with 1 attribute "a"');
    assert.equal(compactValue({ a: 1, b: 2 }, undefined), 'object with 2 attributes');
  });
});

// Failed function calls in a plan (runs/functionCallCheck.ts) through the configuration check: when Terraform finds
// them (calls on constants while validating, before the variables' rules; calls on values while planning, beside
// them), where it points, and what it shows. Expectations of the first three were read off Terraform 1.11 planning
// the same code; the last is the emulator's own line between what it evaluates and what it leaves unknown.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { checkConfiguration } from '../../../emulator/src/runs/configurationCheck';
import { loadTerraformParser, type TerraformParser } from '../../../server/src/model';

describe('failed function calls', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await loadTerraformParser();
  });
  const check = (code: string) =>
    checkConfiguration({ parser, files: new Map([['main.tf', Buffer.from(code)]]), workspaceVariables: [], runVariables: [] }).filter((finding) => finding.severity === 'error');
  const code = (input: string) => `variable "port" {
  default = 80
  validation {
    condition     = var.port > 1024
    error_message = "Privileged."
  }
}
variable "secret" {
  default   = "abc"
  sensitive = true
}
resource "terraform_data" "a" {
  count = 2
  input = [${input}, count.index]
}
output "s" {
  value     = index(["x"], var.secret)
  sensitive = true
}
`;

  test('a call on constants fails while validating: once for a counted resource, and nothing after it is checked', () => {
    const findings = check(code('upper(["x"])'));
    assert.deepEqual(findings.map((f) => f.summary), ['Invalid function argument']);
    const [finding] = findings;
    assert.equal(finding!.detail, 'Invalid value for "str" parameter: string required.');
    assert.deepEqual(finding!.location, { file: 'main.tf', line: 14, text: '  input = [upper(["x"]), count.index]', context: 'resource "terraform_data" "a"', columns: { start: 18, end: 23 } });
    assert.deepEqual(finding!.functionCall, { calledAs: 'upper', params: ['str'] });
  });

  test('with the constants right, the plan fails the rule and the call on a value side by side; a sensitive value is not shown', () => {
    const findings = check(code('upper("x")'));
    assert.deepEqual(findings.map((f) => f.summary), ['Invalid value for variable', 'Error in function call']);
    const call = findings[1]!;
    assert.equal(call.detail, 'Call to function "index" failed: item not found.');
    assert.deepEqual(call.values, []);
    assert.equal(call.location?.context, 'output "s"');
  });

  test('a call reading a variable that failed its rule is never evaluated', () => {
    const findings = check(code('upper("x")').replace('index(["x"], var.secret)', 'index(["x"], tostring(var.port))'));
    assert.deepEqual(findings.map((f) => f.summary), ['Invalid value for variable']);
  });

  test('a dynamic block\'s iterator and a function the engine does not evaluate are no errors; a name Terraform lacks is', () => {
    const dynamic = `variable "rules" { default = [{ port = 1 }] }
resource "terraform_data" "a" {
  input = cidrsubnet("10.0.0.0/16", 8, 1)
  dynamic "rule" {
    for_each = var.rules
    content { port = upper(rule.value.port) }
  }
}
output "o" { value = nosuch(1) }
`;
    assert.deepEqual(check(dynamic).map((f) => `${f.summary}: ${f.detail}`), ['Call to unknown function: There is no function named "nosuch".']);
  });
});

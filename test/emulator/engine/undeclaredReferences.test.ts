// What `terraform validate` finds undeclared in the root module (engine/undeclaredReferences.ts), through the
// configuration check a plan runs. The expectations were read off Terraform 1.11 run on the same code.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { checkConfiguration } from '../../../emulator/src/runs/configurationCheck';
import { loadTerraformParser, type TerraformParser } from '../../../server/src/model';

describe('undeclared references', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await loadTerraformParser();
  });
  const errors = (code: string) =>
    checkConfiguration({ parser, files: new Map([['main.tf', Buffer.from(code)]]), workspaceVariables: [], runVariables: [] })
      .filter((finding) => finding.severity === 'error')
      .map((finding) => `${finding.location?.line} ${finding.location?.context}: ${finding.summary}: ${finding.detail}`);

  test('resources, data sources, modules, locals and variables, in Terraform\'s words', () => {
    assert.deepEqual(
      errors(['resource "terraform_data" "a" { input = var.nope }', 'output "o" { value = local.zzz }', 'output "r" { value = [aws_instance.x.id, data.aws_ami.y.id, module.m.out] }'].join('\n')),
      [
        '1 resource "terraform_data" "a": Reference to undeclared input variable: An input variable with the name "nope" has not been declared. This variable can be declared with a variable "nope" {} block.',
        '2 output "o": Reference to undeclared local value: A local value with the name "zzz" has not been declared.',
        '3 output "r": Reference to undeclared resource: A managed resource "aws_instance" "x" has not been declared in the root module.',
        '3 output "r": Reference to undeclared resource: A data resource "aws_ami" "y" has not been declared in the root module.',
        '3 output "r": Reference to undeclared module: No module call named "m" is declared in the root module.',
      ],
    );
  });

  test('names bound by for expressions and dynamic blocks, lifecycle and moved addresses, scoped check data are no references', () => {
    const code = `variable "list" { default = [] }
locals {
  names = [for s in var.list : s.name]
  keyed = { for k, v in var.list : v.name => k }
}
resource "terraform_data" "a" {
  input = [path.module, terraform.workspace, count.index]
  count = 1
  dynamic "ingress" {
    for_each = var.list
    content { port = ingress.value.port }
  }
  dynamic "egress" {
    for_each = var.list
    iterator = rule
    content { port = rule.value.port }
  }
  lifecycle {
    ignore_changes       = [input]
    replace_triggered_by = [terraform_data.gone]
  }
}
moved {
  from = terraform_data.old
  to   = terraform_data.a
}
check "c" {
  data "terraform_remote_state" "x" { backend = "local" }
  assert {
    condition     = data.terraform_remote_state.x.outputs != null
    error_message = "n"
  }
}
output "o" { value = terraform_data.a[0].output }
`;
    assert.deepEqual(errors(code), []);
  });

  test('a counted resource read without an index, and "did you mean" for a near name', () => {
    const code = `variable "region" { default = "x" }
locals { name = "n" }
resource "terraform_data" "a" { count = 2 }
resource "terraform_data" "b" { for_each = {} }
output "o" { value = [terraform_data.a.output, terraform_data.b.id] }
output "p" { value = [var.regoin, local.nmae] }
`;
    assert.deepEqual(errors(code), [
      '5 output "o": Missing resource instance key: Because terraform_data.a has "count" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    terraform_data.a[count.index]',
      '5 output "o": Missing resource instance key: Because terraform_data.b has "for_each" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    terraform_data.b[each.key]',
      '6 output "p": Reference to undeclared input variable: An input variable with the name "regoin" has not been declared. Did you mean "region"?',
      '6 output "p": Reference to undeclared local value: A local value with the name "nmae" has not been declared. Did you mean "name"?',
    ]);
  });

  test('as Terraform walks the graph: a static error hides the block\'s own variable errors, and what reads a failed block is not evaluated', () => {
    const code = `resource "terraform_data" "a" { input = [aws_x.y, var.hidden] }
output "reads_a" { value = [terraform_data.a.output, local.also_hidden] }
locals { bad = local.missing }
output "reads_bad" { value = [local.bad, var.hidden_too] }
output "separate" {
  value      = aws_z.w
  depends_on = [var.still_reported]
}
`;
    assert.deepEqual(
      errors(code).map((line) => line.split(': ').slice(0, 2).join(': ')),
      [
        '1 resource "terraform_data" "a": Reference to undeclared resource',
        '3 locals: Reference to undeclared local value',
        '6 output "separate": Reference to undeclared resource',
        '7 output "separate": Reference to undeclared input variable',
      ],
    );
  });
});

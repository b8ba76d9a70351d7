// The real Terraform CLI against the emulator, for what a remote plan refuses before it plans anything: references
// to undeclared things, variable validation rules, functions called with arguments they do not take. Each test
// writes main.tf, runs `terraform plan`, and reads the error the CLI prints from the run's log (Terraform's words,
// "on <file> line <n>, in <block>:" and the line as written). Same set-up as terraform-cli-values.test.ts.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningEmulator } from '../../emulator/src/index';
import { callApi, runCli, startCliSandbox, terraform } from './harness';

/** The cloud block takes lines 1-9, so the code given starts on line 11 of main.tf. */
const configuration = (host: string, code: string) => `terraform {
  cloud {
    hostname     = "${host}"
    organization = "acme-demo"
    workspaces {
      name = "checks-app"
    }
  }
}

${code}`;

describe('the Terraform CLI against the emulator: what a plan refuses', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let host: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    ({ emulator, host, dir: folder } = await startCliSandbox('hcp-cli-checks-'));
    writeFileSync(path.join(folder, 'main.tf'), configuration(host, ''));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TF_VAR_')));
    env = { ...inherited, TF_CLI_CONFIG_FILE: path.join(folder, 'cli.tfrc'), SSL_CERT_FILE: path.join(folder, 'ca.pem'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
    await runCli(['init', '-input=false'], { cwd: folder, env });
  });
  after(() => emulator?.close());

  /** Plans `code`; resolves with what the CLI printed when the plan failed, and the run's status. */
  const failedPlan = async (code: string, ...args: string[]) => {
    writeFileSync(path.join(folder, 'main.tf'), configuration(host, code));
    const output = await runCli(['plan', '-input=false', ...args], { cwd: folder, env }).then(
      (printed) => assert.fail(`the plan did not fail:\n${printed}`),
      (error: Error) => error.message,
    );
    // A plan from the CLI is speculative, never the workspace's current run: its id is in the link the CLI prints.
    const runId = /\/runs\/(run-\w+)/.exec(output)?.[1];
    return { output, status: runId ? (await callApi(emulator, `/runs/${runId}`)).body.data.attributes.status : undefined };
  };
  const plans = async (code: string, ...args: string[]) => {
    writeFileSync(path.join(folder, 'main.tf'), configuration(host, code));
    return runCli(['plan', '-input=false', ...args], { cwd: folder, env });
  };

  test('references to an undeclared resource, local value and variable fail the plan with Terraform\'s errors', async () => {
    const { output, status } = await failedPlan(
      ['resource "terraform_data" "a" {', '  input = [aws_instance.x.id, terraform_data.nope.output]', '}', 'output "o" {', '  value = local.missing', '}', 'output "v" {', '  value = var.missing', '}'].join('\n'),
    );
    assert.match(output, /│ Error: Reference to undeclared resource\n│\n│   on main\.tf line 12, in resource "terraform_data" "a":\n│   12:   input = \[aws_instance\.x\.id, terraform_data\.nope\.output\]\n│\n│ A managed resource "aws_instance" "x" has not been declared in the root\n│ module\./);
    assert.match(output, /A managed resource "terraform_data" "nope" has not been declared in the\n│ root module\./);
    assert.match(output, /│ Error: Reference to undeclared local value\n│\n│   on main\.tf line 15, in output "o":\n│   15:   value = local\.missing\n│\n│ A local value with the name "missing" has not been declared\./);
    assert.match(output, /│ Error: Reference to undeclared input variable\n│\n│   on main\.tf line 18, in output "v":\n│   18:   value = var\.missing\n│\n│ An input variable with the name "missing" has not been declared\. This\n│ variable can be declared with a variable "missing" \{\} block\./);
    assert.equal(status, 'errored');
  });

  const validated = `variable "env" {
  type = string
  validation {
    condition     = var.env == "dev" || var.env == "staging"
    error_message = "Environment must be dev or staging, not \${var.env}."
  }
}
variable "tags" {
  type    = map(string)
  default = { a = "b" }
  validation {
    condition     = length(var.tags) > 1
    error_message = "Needs two tags."
  }
}
resource "terraform_data" "env" {
  input = var.env
}`;

  test('a value that fails its validation rule fails the plan: the tfvars line that set it, or the declaration for a default', async () => {
    writeFileSync(path.join(folder, 'terraform.tfvars'), '# set by the file\nenv = "qa"\n');
    const { output, status } = await failedPlan(validated);
    assert.match(
      output,
      /│ Error: Invalid value for variable\n│\n│   on terraform\.tfvars line 2:\n│    2: env = "qa"\n│     ├────────────────\n│     │ var\.env is "qa"\n│\n│ Environment must be dev or staging, not qa\.\n│\n│ This was checked by the validation rule at main\.tf:13,3-13\./,
    );
    assert.match(
      output,
      /│   on main\.tf line 18:\n│   18: variable "tags" \{\n│     ├────────────────\n│     │ var\.tags is map of string with 1 element\n│\n│ Needs two tags\.\n│\n│ This was checked by the validation rule at main\.tf:21,3-13\./,
    );
    assert.equal(status, 'errored');
  });

  test('workspace and run variables that satisfy the rules plan; a sensitive workspace value is never shown', async () => {
    const workspace = (await callApi(emulator, '/organizations/acme-demo/workspaces/checks-app')).body.data;
    const created = await callApi(emulator, `/workspaces/${workspace.id}/vars`, 'POST', { data: { type: 'vars', attributes: { key: 'env', value: 'dev', category: 'terraform' } } });
    assert.equal(created.status, 201);
    const planned = await plans(validated, '-var', 'tags={ a = "b", c = "d" }');
    assert.match(planned, /\+ input += "dev"/, 'the workspace variable over the tfvars file');
    assert.match(planned, /Plan: 1 to add, 0 to change, 0 to destroy\./);

    const variable = created.body.data;
    await callApi(emulator, `/workspaces/${workspace.id}/vars/${variable.id}`, 'PATCH', { data: { type: 'vars', id: variable.id, attributes: { value: 'hunter2', sensitive: true } } });
    const { output } = await failedPlan(validated, '-var', 'tags={ a = "b", c = "d" }');
    assert.match(output, /│   on main\.tf line 11:\n│   11: variable "env" \{\n│\n│ The error message included a sensitive value, so it will not be displayed\.\n│\n│ This was checked by the validation rule at main\.tf:13,3-13\./);
    assert.doesNotMatch(output, /hunter2/);
  });

  const functionsCode = `variable "names" {
  type    = list(string)
  default = ["b", "a", "b"]
}
locals {
  ids = distinct(var.names)
}
resource "terraform_data" "f" {
  input = {
    first   = element(local.ids, 0)
    up      = upper(coalesce("", "x"))
    parts   = split("-", "a-b")
    hash    = substr(sha256("hello"), 0, 8)
    decoded = jsondecode("{\\"k\\":1}").k
    re      = regex("[0-9]+", "v12")
    can     = can(var.names[5])
    tried   = try(var.names[5], "none")
    zip     = zipmap(["a"], [max(1, 3)])
  }
}`;

  test('functions evaluate to what Terraform plans (the same lines a local terraform plan printed)', async () => {
    const planned = await plans(functionsCode);
    const body = planned.slice(planned.indexOf('      + input  = {'), planned.indexOf('      + output = (known after apply)'));
    assert.equal(
      body,
      [
        '      + input  = {',
        '          + can     = false',
        '          + decoded = 1',
        '          + first   = "b"',
        '          + hash    = "2cf24dba"',
        '          + parts   = [',
        '              + "a",',
        '              + "b",',
        '            ]',
        '          + re      = "12"',
        '          + tried   = "none"',
        '          + up      = "X"',
        '          + zip     = {',
        '              + a = 3',
        '            }',
        '        }',
        '',
      ].join('\n'),
    );
  });

  test('a call on constants fails before the variables are read; one on a variable\'s value fails the plan', async () => {
    const { output, status } = await failedPlan('locals {\n  shout = upper(["x"])\n}\noutput "o" {\n  value = local.shout\n}');
    assert.match(output, /│ Error: Invalid function argument\n│\n│   on main\.tf line 12, in locals:\n│   12:   shout = upper\(\["x"\]\)\n│     ├────────────────\n│     │ while calling upper\(str\)\n│\n│ Invalid value for "str" parameter: string required\./);
    assert.equal(status, 'errored');

    const picked = 'variable "names" {\n  default = ["a", "b"]\n}\nvariable "pick" {\n  default = "z"\n}\noutput "o" {\n  value = index(var.names, var.pick)\n}';
    const { output: planOutput } = await failedPlan(picked);
    assert.match(planOutput, /│ Error: Error in function call\n│\n│   on main\.tf line 18, in output "o":\n│   18:   value = index\(var\.names, var\.pick\)\n│     ├────────────────\n│     │ while calling index\(list, value\)\n│     │ var\.names is tuple with 2 elements\n│     │ var\.pick is "z"\n│\n│ Call to function "index" failed: item not found\./);
    const fixed = await plans(picked, '-var', 'pick=b');
    assert.match(fixed, /\+ o = 1/, 'the run variable\'s value is found');
  });
});

// Where a remote run's variables get their values, as HCP Terraform and Terraform order the sources (later wins):
// TF_VAR_ env variables < terraform.tfvars < terraform.tfvars.json < *.auto.tfvars(.json) by name < the workspace's
// Terraform variables < the run's variables; the default only when nothing sets it. And what the plan then reads.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { readConfiguration } from '../../../emulator/src/engine/configuration';
import { variableValues } from '../../../emulator/src/engine/plan';
import { assignedVariables, variableFiles } from '../../../emulator/src/engine/variableAssignments';
import type { Variable } from '../../../emulator/src/store/model';
import type { TerraformParser } from '../../../server/src/model';
import { testParser } from '../../model/helpers';

const files = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([k, v]) => [k, Buffer.from(v)]));
const workspaceVariable = (key: string, value: string, fields: Partial<Variable> = {}): Variable => ({
  id: `var-${key}`, workspaceId: 'ws-1', key, value, description: null, category: 'engine', hcl: false, sensitive: false, createdAt: new Date(0), versionId: 'v', ...fields,
});
const env = (key: string, value: string) => workspaceVariable(key, value, { category: 'env' });

const sources = ['env', 'tfvars', 'tfvarsJson', 'autoA', 'autoB', 'workspace', 'run'];
const declarations = sources.map((name) => `variable "${name}" {}`).join('\n');

describe('configuration engine: variable values and their precedence', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await testParser();
  });

  test('each source overrides the ones before it; each variable is named after the last source that sets it', () => {
    // A source sets the variable named after it and those named after every later source, so each variable's value
    // says which source won it: the last one that sets it.
    const setBy = (source: string) => sources.slice(sources.indexOf(source));
    const configuration = files({
      'main.tf': declarations,
      'terraform.tfvars': setBy('tfvars').map((name) => `${name} = "terraform.tfvars"`).join('\n'),
      'terraform.tfvars.json': JSON.stringify(Object.fromEntries(setBy('tfvarsJson').map((name) => [name, 'terraform.tfvars.json']))),
      // b.auto.tfvars.json sorts after a.auto.tfvars: JSON and HCL auto files are one list in name order.
      'a.auto.tfvars': setBy('autoA').map((name) => `${name} = "a.auto.tfvars"`).join('\n'),
      'b.auto.tfvars.json': JSON.stringify(Object.fromEntries(setBy('autoB').map((name) => [name, 'b.auto.tfvars.json']))),
      'modules/x/terraform.tfvars': 'env = "not the root module"',
    });
    const workspace = [...setBy('env').map((name) => env(`TF_VAR_${name}`, 'TF_VAR')), ...setBy('workspace').map((name) => workspaceVariable(name, 'workspace'))];
    const run = setBy('run').map((key) => ({ key, value: '"run"' }));
    const values = assignedVariables(parser, configuration, workspace, run);
    assert.deepEqual(Object.fromEntries([...values].map(([name, { value }]) => [name, value])), {
      env: 'TF_VAR',
      tfvars: 'terraform.tfvars',
      tfvarsJson: 'terraform.tfvars.json',
      autoA: 'a.auto.tfvars',
      autoB: 'b.auto.tfvars.json',
      workspace: 'workspace',
      run: 'run',
    });
    assert.equal(values.get('autoB')!.origin, 'b.auto.tfvars.json');
    assert.equal(values.get('env')!.origin, 'environment variable TF_VAR_env');
  });

  test('auto files load in byte order of their names, after terraform.tfvars and its JSON form', () => {
    assert.deepEqual(variableFiles(files({ 'b.auto.tfvars': '', 'B.auto.tfvars.json': '', 'terraform.tfvars.json': '', 'a.auto.tfvars': '', 'terraform.tfvars': '', 'x.tfvars': '', 'sub/c.auto.tfvars': '' })), [
      'terraform.tfvars', 'terraform.tfvars.json', 'B.auto.tfvars.json', 'a.auto.tfvars', 'b.auto.tfvars',
    ]);
  });

  test('a TF_VAR_ value is the text itself for a primitive or untyped variable, HCL for any other type', () => {
    const configuration = files({ 'main.tf': 'variable "n" { type = number }\nvariable "s" {}\nvariable "l" { type = list(string) }\nvariable "m" { type = any }\n' });
    const values = assignedVariables(parser, configuration, [env('TF_VAR_n', '9'), env('TF_VAR_s', '["x"]'), env('TF_VAR_l', '["a", "b"]'), env('TF_VAR_m', '{ k = 1 }')], []);
    assert.deepEqual(Object.fromEntries([...values].map(([name, { value }]) => [name, value])), { n: '9', s: '["x"]', l: ['a', 'b'], m: { k: 1 } });
  });

  test('the plan reads them: tfvars files and TF_VAR_ variables reach resource arguments, converted to the declared type', () => {
    const configuration = files({
      'main.tf': 'variable "w" { type = string }\nvariable "e" { type = string }\nvariable "n" {\n  type    = number\n  default = 1\n}\nresource "terraform_data" "w" { input = "${var.w}/${var.e}" }\nresource "terraform_data" "n" { input = var.n }\n',
      'x.auto.tfvars': 'w = "from-auto-tfvars"',
    });
    const values = variableValues(parser, configuration, [env('TF_VAR_e', 'from-env'), env('TF_VAR_n', '9'), env('OTHER', 'x')], []);
    const instances = readConfiguration(parser, configuration, values)!.instances;
    assert.deepEqual(instances.map((instance) => [instance.address, instance.values.input]), [['terraform_data.w', 'from-auto-tfvars/from-env'], ['terraform_data.n', 9]]);
  });
});

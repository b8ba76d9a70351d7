// The configuration check a plan runs first (runs/configurationCheck.ts), against the demo contract: the
// fixture folder test/fixtures/demo-app/ with the workspace variables the demo seed gives `demo-app`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkConfiguration } from '../../emulator/src/runs/configurationCheck';
import type { Variable } from '../../emulator/src/store/model';
import { addConfigurationVersion } from '../../emulator/src/seeds/builders';
import { startHarness, statesReached, type Harness } from './runs-harness';
import { loadTerraformParser, type TerraformParser } from '../../server/src/model';

const fixture = path.join(import.meta.dirname ?? __dirname, '..', 'fixtures', 'demo-app');

function fixtureFiles(): Map<string, Buffer> {
  return new Map(readdirSync(fixture).filter((f) => /\.(tf|tfvars)$/.test(f)).map((f) => [f, readFileSync(path.join(fixture, f))]));
}

function variable(key: string, value: string, extra: Partial<Variable> = {}): Variable {
  return {
    id: `var-${key}`,
    workspaceId: 'ws-demo',
    key,
    value,
    description: null,
    category: 'engine',
    hcl: false,
    sensitive: false,
    createdAt: new Date(0),
    versionId: 'v1',
    ...extra,
  };
}

/** The demo contract's workspace variables for demo-app. */
const demoVariables = [
  variable('instance_count', '3'),
  variable('region', 'eu-north-1'),
  variable('db_password', 'hunter2-demo'),
  variable('services', '{ web = { port = 80, public = true }', { hcl: true }),
  variable('legacy_flag', 'true'),
  variable('TF_VAR_enable_monitoring', 'true', { category: 'env' }),
  variable('TF_LOG', 'INFO', { category: 'env' }),
  variable('AWS_SECRET_ACCESS_KEY', 'not-for-logs', { category: 'env', sensitive: true }),
];

describe('configuration check (demo contract)', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await loadTerraformParser();
  });

  test('finds exactly what would stop terraform plan on demo-app', () => {
    const findings = checkConfiguration({ parser, files: fixtureFiles(), workspaceVariables: demoVariables, runVariables: [] });
    const summary = findings.map((f) => `${f.severity}: ${f.summary}: ${/"([^"]+)"/.exec(f.detail)?.[1]}`).sort();
    assert.deepEqual(summary, [
      'error: Invalid expression: services',
      'error: Invalid value for input variable: replica_count',
      'error: No value for required variable: environment',
      'error: Reference to undeclared input variable: owner_email',
      'warning: Value for undeclared variable: legacy_flag',
    ]);
    const missing = findings.find((f) => f.summary === 'No value for required variable')!;
    assert.equal(missing.location?.file, 'variables.tf');
    assert.equal(missing.location?.text, 'variable "environment" {');
    const source = readFileSync(path.join(fixture, 'variables.tf'), 'utf8').split('\n');
    assert.equal(source[missing.location!.line - 1], 'variable "environment" {');
    assert.match(findings.find((f) => f.summary === 'Invalid value for input variable')!.detail, /terraform\.tfvars.*a number is required/);
  });

  test('values from run variables, workspace variables and TF_VAR_ fill the gaps; no values are quoted', () => {
    const fixed = demoVariables
      .filter((v) => v.key !== 'services')
      .concat(variable('replica_count', '2'), variable('owner_email', 'x'));
    const findings = checkConfiguration({ parser, files: fixtureFiles(), workspaceVariables: fixed, runVariables: [{ key: 'environment', value: '"dev"' }] });
    const errors = findings.filter((f) => f.severity === 'error').map((f) => f.summary);
    assert.deepEqual(errors, ['Reference to undeclared input variable'], 'only the undeclared reference is left');
    const text = JSON.stringify(findings);
    for (const secret of ['hunter2-demo', 'not-for-logs', 'eu-north-1']) assert.ok(!text.includes(secret));
  });

  test('a local module\'s variables get their values from the module block, not from the workspace', () => {
    const files = new Map([
      ['main.tf', Buffer.from('module "child" {\n  source = "./child"\n  size   = 3\n}\n')],
      ['child/main.tf', Buffer.from('variable "size" {}\n')],
    ]);
    assert.deepEqual(checkConfiguration({ parser, files, workspaceVariables: [], runVariables: [] }), []);
    const rootOnly = new Map([['main.tf', Buffer.from('variable "size" {}\n')]]);
    assert.deepEqual(checkConfiguration({ parser, files: rootOnly, workspaceVariables: [], runVariables: [] }).map((f) => f.summary), ['No value for required variable']);
  });

  test('reads the code as Terraform does: comments, strings and nested blocks do not fool it', () => {
    const files = new Map([
      [
        'main.tf',
        Buffer.from(
          [
            '/* var.in_block_comment */',
            'variable "ports" {',
            '  type = list(number)',
            '  validation {',
            '    condition     = length(var.ports) > 0',
            '    error_message = "Needs var.ports; default = none."',
            '  }',
            '}',
            'variable "name" {',
            '  type    = string',
            '  default = "x" # default = 1',
            '}',
            'output "o" { value = "literal var.not_a_reference" }',
            'output "p" { value = "${var.interpolated}" }',
            '',
          ].join('\n'),
        ),
      ],
      ['terraform.tfvars', Buffer.from('ports = [80, "http"]\n')],
    ]);
    const findings = checkConfiguration({ parser, files, workspaceVariables: [], runVariables: [] });
    assert.deepEqual(
      findings.map((f) => `${f.summary}: ${/"([^"]+)"/.exec(f.detail)?.[1]}`),
      ['Invalid value for input variable: ports', 'Reference to undeclared input variable: interpolated'],
    );
    assert.match(findings[0]!.detail, /\[1\]: number required, found string/);
    assert.ok(!findings[0]!.detail.includes('http'), 'the value itself is never quoted');
    // Terraform's snippet: the block it is in, and the reference's columns (`var.interpolated`).
    assert.deepEqual(findings[1]!.location, { file: 'main.tf', line: 14, text: 'output "p" { value = "${var.interpolated}" }', context: 'output "p"', columns: { start: 25, end: 41 } });
  });

  test('an HCL workspace value is read by the parser: balanced but invalid HCL is an invalid expression', () => {
    const files = new Map([['main.tf', Buffer.from('variable "tags" {\n  type = map(string)\n}\n')]]);
    const check = (value: string) =>
      checkConfiguration({ parser, files, workspaceVariables: [variable('tags', value, { hcl: true })], runVariables: [] }).map((f) => f.summary);
    assert.deepEqual(check('{ team = "core" }'), []);
    assert.deepEqual(check('{ team = = "core" }'), ['Invalid expression']);
    assert.deepEqual(check('["a", "b"]'), ['Invalid value for input variable']);
  });

  test('without a parser nothing is checked', () => {
    assert.deepEqual(checkConfiguration({ parser: undefined, files: fixtureFiles(), workspaceVariables: [], runVariables: [] }), []);
  });

  test('a configuration without .tf files is not checked', () => {
    assert.deepEqual(checkConfiguration({ parser, files: new Map(), workspaceVariables: demoVariables, runVariables: [] }), []);
  });
});

describe('a run on the demo-app configuration', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ followConfiguration: true });
    for (const v of demoVariables) h.store.variables.set(v.id, { ...v, workspaceId: h.workspace.id });
    addConfigurationVersion(h.store, h.workspace, 'demo-app', { files: fixtureFiles() });
  });
  after(() => h.close());

  test('errors in planning with Terraform\'s diagnostics in the log, and never a variable value', async () => {
    const id = await h.createRun();
    await h.clock.advance(60_000);
    const run = await h.run(id);
    assert.deepEqual(statesReached(run), ['queuing', 'plan-queued', 'planning', 'errored']);
    const plan = (await h.api('GET', `/api/v2/runs/${id}/plan`)).body.data.attributes;
    assert.equal(plan.status, 'errored');
    const log = await (await fetch(plan['log-read-url'])).text();
    // Structured run output (the workspace default): each finding is a `diagnostic` line the CLI draws.
    const diagnostics = log.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line)).filter((entry) => entry.type === 'diagnostic');
    const missing = diagnostics.find((entry) => entry.diagnostic.summary === 'No value for required variable');
    assert.equal(missing['@level'], 'error');
    assert.deepEqual([missing.diagnostic.range.filename, missing.diagnostic.snippet.code], ['variables.tf', 'variable "environment" {']);
    assert.equal(diagnostics.find((entry) => entry.diagnostic.summary === 'Value for undeclared variable')['@level'], 'warn');
    assert.match(log, /Operation failed: failed running terraform plan/);
    for (const secret of ['hunter2-demo', 'not-for-logs']) assert.ok(!log.includes(secret));
  });

  test('with structured run output off, the same findings read as Terraform\'s plain-text diagnostics', async () => {
    h.workspace.structuredRunOutputEnabled = false;
    const id = await h.createRun();
    await h.clock.advance(60_000);
    const log = await (await fetch((await h.api('GET', `/api/v2/runs/${id}/plan`)).body.data.attributes['log-read-url'])).text();
    assert.match(log, /│ Error: No value for required variable\n│\n│   on variables\.tf line \d+:\n│   \d+: variable "environment" \{/);
    assert.match(log, /│ Warning: Value for undeclared variable/);
    assert.match(log, /Operation failed: failed running terraform plan/);
    for (const secret of ['hunter2-demo', 'not-for-logs']) assert.ok(!log.includes(secret));
    h.workspace.structuredRunOutputEnabled = undefined;
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DiagnosticSeverity, DiagnosticTag } from 'vscode-languageserver';
import type { Diagnostic } from 'vscode-languageserver';
import { computeFolderDiagnostics } from '../../server/src/features/diagnostics';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { demoFile, demoVariables, linkedSnapshot, loadDemoModel, loadMemoryModel, uriOf } from './helpers';

function byCode(diagnostics: Map<string, Diagnostic[]>, code: string): { file: string; diagnostic: Diagnostic }[] {
  return [...diagnostics].flatMap(([file, list]) => list.filter((d) => d.code === code).map((diagnostic) => ({ file, diagnostic })));
}

function messageOf(diagnostic: Diagnostic): string {
  return typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value;
}

/** 0-based line of the first line of `file` containing `text`. */
function lineOf(file: string, text: string): number {
  return readFileSync(file, 'utf8').split('\n').findIndex((line) => line.includes(text));
}

function allMessages(diagnostics: Map<string, Diagnostic[]>): string {
  return [...diagnostics.values()].flat().map(messageOf).join('\n');
}

describe('diagnostics of demo-app against the demo workspace', () => {
  test('report every code once, where it belongs, with source hcp-terraform', async () => {
    const { model, parser } = await loadDemoModel();
    const diagnostics = computeFolderDiagnostics(model, linkedSnapshot(model), parser);
    for (const d of [...diagnostics.values()].flat()) assert.equal(d.source, 'hcp-terraform');

    const missing = byCode(diagnostics, 'missing-value');
    assert.deepEqual(missing.map((m) => m.file), [demoFile('variables.tf')]);
    assert.match(messageOf(missing[0].diagnostic), /"environment" has no value/);
    // on the block's name label: line of `variable "environment" {`
    assert.equal(missing[0].diagnostic.range.start.line, lineOf(demoFile('variables.tf'), 'variable "environment"'));

    const undeclaredWs = byCode(diagnostics, 'undeclared-workspace-variable');
    assert.deepEqual(undeclaredWs.map((u) => messageOf(u.diagnostic).match(/"(\w+)"/)?.[1]), ['legacy_flag']);
    assert.equal(undeclaredWs[0].file, demoFile('main.tf'));
    assert.equal(undeclaredWs[0].diagnostic.range.start.line, lineOf(demoFile('main.tf'), 'name = "demo-app"'), 'on the workspaces name line');

    const undeclared = byCode(diagnostics, 'undeclared-variable');
    assert.equal(undeclared.length, 1);
    assert.equal(undeclared[0].file, demoFile('main.tf'));
    assert.match(messageOf(undeclared[0].diagnostic), /"owner_email" is not declared/);

    const invalidHcl = byCode(diagnostics, 'invalid-hcl-value');
    assert.deepEqual(invalidHcl.map((i) => (i.diagnostic.data as { variable: { key: string } }).variable.key), ['services']);

    const mismatch = byCode(diagnostics, 'type-mismatch');
    assert.equal(mismatch.length, 1);
    assert.equal(mismatch[0].file, demoFile('terraform.tfvars'));
    assert.match(messageOf(mismatch[0].diagnostic), /"replica_count".*number/);

    const overridden = byCode(diagnostics, 'overridden-by-workspace');
    assert.equal(overridden.length, 1);
    assert.equal(overridden[0].file, demoFile('terraform.tfvars'));
    assert.equal(overridden[0].diagnostic.severity, DiagnosticSeverity.Hint);
    assert.deepEqual(overridden[0].diagnostic.tags, [DiagnosticTag.Unnecessary]);
    assert.match(messageOf(overridden[0].diagnostic), /"region"/);

    const exposed = byCode(diagnostics, 'sensitive-exposed');
    assert.equal(exposed.length, 1);
    assert.match(messageOf(exposed[0].diagnostic), /"db_password" is declared sensitive/);
    model.dispose();
  });

  test('the link: a problem in the cloud block warns where it is; a workspace the service does not have is an error on its name', async () => {
    const { model, parser } = await loadDemoModel();
    const link = model.serviceLink();
    const at = link.workspaceNameLine!;
    const problem = { code: 'not-literal' as const, message: 'The workspace name is empty: write it between the quotes.', file: at.file, range: at.range };
    const linkOf = (diagnostics: ReturnType<typeof computeFolderDiagnostics>) => (diagnostics.get(at.file) ?? []).filter((d) => d.code === 'workspace-link');
    const warned = linkOf(computeFolderDiagnostics(model, linkedSnapshot(model, { link: { ...link, problems: [problem] } }), parser));
    assert.deepEqual(warned.map((d) => [d.severity, d.message, d.data]), [[DiagnosticSeverity.Warning, problem.message, { code: 'workspace-link', problem: 'not-literal' }]]);
    const missing = linkOf(computeFolderDiagnostics(model, linkedSnapshot(model, { workspace: { kind: 'not-found', hostname: 'app.terraform.io', organization: 'acme-demo', name: 'demo-app' } }), parser));
    assert.equal(missing.length, 1);
    assert.equal(missing[0]!.severity, DiagnosticSeverity.Error);
    assert.deepEqual(missing[0]!.range, at.range);
    assert.match(String(missing[0]!.message), /no workspace "demo-app" in organization "acme-demo" on app\.terraform\.io/);
    assert.deepEqual(linkOf(computeFolderDiagnostics(model, linkedSnapshot(model), parser)), [], 'a good link says nothing');
    model.dispose();
  });

  test('never contain a sensitive value, even in a type mismatch', async () => {
    const { model, parser } = await loadMemoryModel({
      'variables.tf': 'variable "secret_port" {\n  type      = number\n  sensitive = true\n}\n',
      'terraform.tfvars': 'secret_port = "tfvars-secret-text"\n',
    });
    const snapshot = linkedSnapshot(model, {
      variables: [{ id: 'var-1', key: 'secret_port', value: 'ws-secret-text', category: 'engine', hcl: false, sensitive: false }],
    });
    const messages = allMessages(computeFolderDiagnostics(model, snapshot, parser));
    assert.match(messages, /secret_port/);
    assert.doesNotMatch(messages, /tfvars-secret-text|ws-secret-text/);
    model.dispose();
  });

  test('need the workspace before saying a value is missing: none while loading or signed out', async () => {
    const { model, parser } = await loadDemoModel();
    for (const snapshot of [undefined, linkedSnapshot(model, { variables: undefined }), linkedSnapshot(model, { workspace: { kind: 'signed-out', hostname: 'app.terraform.io' }, variables: undefined })]) {
      const diagnostics = computeFolderDiagnostics(model, snapshot, parser);
      assert.equal(byCode(diagnostics, 'missing-value').length, 0);
      assert.equal(byCode(diagnostics, 'sensitive-exposed').length, 0);
      // what the code alone shows is still there
      assert.equal(byCode(diagnostics, 'undeclared-variable').length, 1);
      assert.equal(byCode(diagnostics, 'type-mismatch').length, 1);
    }
    model.dispose();
  });

  test('an env TF_VAR_ or an auto-loaded tfvars entry is a value; a non-auto-loaded tfvars file is not', async () => {
    const { model, parser } = await loadMemoryModel({
      'variables.tf': ['a', 'b', 'c', 'd'].map((n) => `variable "${n}" {}`).join('\n'),
      'x.auto.tfvars': 'b = 1\n',
      'extra.tfvars': 'c = 1\n',
    });
    const snapshot = linkedSnapshot(model, { variables: [{ id: 'v', key: 'TF_VAR_a', value: '1', category: 'env', hcl: false, sensitive: false }] });
    const missing = byCode(computeFolderDiagnostics(model, snapshot, parser), 'missing-value').map((m) => (m.diagnostic.data as { name: string }).name);
    assert.deepEqual(missing.sort(), ['c', 'd']);
    model.dispose();
  });

  test('a workspace value that does not fit the type is reported on the workspace line, with the HCL flag fix when flipping helps', async () => {
    const { model, parser } = await loadDemoModel();
    const variables = demoVariables().filter((v) => v.key !== 'services');
    variables.push({ id: 'var-cidrs', key: 'allowed_cidrs', value: '["10.0.0.0/8"]', category: 'engine', hcl: false, sensitive: false });
    variables.push({ id: 'var-tags', key: 'TF_VAR_tags', value: '[1, 2]', category: 'env', hcl: false, sensitive: false });
    const diagnostics = computeFolderDiagnostics(model, linkedSnapshot(model, { variables }), parser);
    const workspaceMismatches = byCode(diagnostics, 'type-mismatch').filter((m) => m.file === demoFile('main.tf'));
    const data = workspaceMismatches.map((m) => m.diagnostic.data as { name: string; hclFlagFix?: boolean });
    assert.deepEqual(data.map((d) => [d.name, d.hclFlagFix]).sort(), [['allowed_cidrs', true], ['tags', undefined]]);
    // On the workspace's line, each points at the type it breaks (LSP relatedInformation).
    const related = workspaceMismatches.map((m) => m.diagnostic.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line, r.message]));
    const variablesUri = uriOf(demoFile('variables.tf'));
    assert.deepEqual(related.sort(), [
      [[variablesUri, lineOf(demoFile('variables.tf'), 'type        = list(string)'), 'variable "allowed_cidrs" is declared with type list(string) here']],
      [[variablesUri, lineOf(demoFile('variables.tf'), 'type        = map(string)'), 'variable "tags" is declared with type map(string) here']],
    ]);
    model.dispose();
  });
});

describe('a tfvars value no variable declares', () => {
  test('warns on its key, in HCL and JSON files, loaded or not, without the value; declared keys say nothing', async () => {
    const { model, parser, folder } = await loadMemoryModel({
      'variables.tf': 'variable "region" {}\n',
      'terraform.tfvars': 'region = "eu-west-1"\nregoin = "tfvars-secret-text"\n',
      'prod.tfvars': 'count_of = 3\n',
      'extra.auto.tfvars.json': '{\n  "region": "x",\n  "tags": {"team": "a"}\n}\n',
    });
    const undeclared = byCode(computeFolderDiagnostics(model, undefined, parser), 'undeclared-tfvars-value');
    const seen = undeclared.map(({ file, diagnostic }) => [path.basename(file), diagnostic.range.start.line, diagnostic.range.start.character, diagnostic.range.end.character, diagnostic.severity, diagnostic.data]);
    assert.deepEqual(seen.sort(), [
      ['extra.auto.tfvars.json', 2, 2, 8, DiagnosticSeverity.Warning, { code: 'undeclared-tfvars-value', name: 'tags', guessedType: 'map(string)' }],
      ['prod.tfvars', 0, 0, 8, DiagnosticSeverity.Warning, { code: 'undeclared-tfvars-value', name: 'count_of', guessedType: 'number' }],
      ['terraform.tfvars', 1, 0, 6, DiagnosticSeverity.Warning, { code: 'undeclared-tfvars-value', name: 'regoin', guessedType: 'string' }],
    ]);
    const message = messageOf(undeclared.find(({ file }) => file === path.join(folder, 'terraform.tfvars'))!.diagnostic);
    assert.match(message, /No variable "regoin" is declared/);
    assert.doesNotMatch(message, /tfvars-secret-text/);
    model.dispose();
  });

  test('says nothing in a folder of tfvars files alone (no configuration to declare them)', async () => {
    const { model, parser } = await loadMemoryModel({ 'terraform.tfvars': 'region = "eu-west-1"\n' });
    assert.deepEqual(byCode(computeFolderDiagnostics(model, undefined, parser), 'undeclared-tfvars-value'), []);
    model.dispose();
  });
});

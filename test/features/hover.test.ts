import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Hover } from 'vscode-languageserver';
import { provideHover } from '../../server/src/features/hover';
import type { ModuleFolderModel } from '../../server/src/model';
import { demoFile, linkedSnapshot, loadDemoModel } from './helpers';

function hoverAt(model: ModuleFolderModel, file: string, marked: string, snapshot = linkedSnapshot(model)): Hover | undefined {
  const offset = marked.indexOf('|');
  const text = marked.replace('|', '');
  model.openDocument(file, text);
  const before = text.slice(0, offset).split('\n');
  return provideHover(model, snapshot, file, { line: before.length - 1, character: before[before.length - 1].length });
}

function textOf(hover: Hover | undefined): string {
  assert.ok(hover, 'expected a hover');
  const contents = hover.contents;
  return typeof contents === 'object' && 'value' in contents ? contents.value : JSON.stringify(contents);
}

describe('hover on variables', () => {
  test('shows type, description, the value a run would use, its source and what it overrides', async () => {
    const { model } = await loadDemoModel();
    const text = textOf(hoverAt(model, demoFile('x.tf'), 'locals {\n  r = var.reg|ion\n}\n'));
    assert.match(text, /\*\*var\.region\*\* · `string`/);
    assert.match(text, /Region the app is described for\./);
    assert.match(text, /Value used by a run: `"eu-north-1"` from workspace variable \(demo-app\)/);
    assert.match(text, /Overrides: `"eu-central-1"` from terraform\.tfvars; `"eu-west-1"` from default/);
    model.dispose();
  });

  test('on a variable block name, and says when there is no value', async () => {
    const { model } = await loadDemoModel();
    const file = demoFile('variables.tf');
    const { readFileSync } = await import('node:fs');
    const original = readFileSync(file, 'utf8');
    const text = textOf(hoverAt(model, file, original.replace('variable "environment"', 'variable "envi|ronment"')));
    assert.match(text, /Value: \*\*none\*\*: a run would fail/);
    model.dispose();
  });

  test('never shows a sensitive value (declared sensitive, or sensitive in the workspace)', async () => {
    const { model } = await loadDemoModel();
    const declared = textOf(hoverAt(model, demoFile('x.tf'), 'locals {\n  p = var.db_pass|word\n}\n'));
    assert.match(declared, /\(sensitive\) from workspace variable/);
    assert.doesNotMatch(declared, /hunter2/);
    const snapshot = linkedSnapshot(model, { variables: [{ id: 'v1', key: 'region', category: 'engine', hcl: false, sensitive: true }] });
    const workspaceSensitive = textOf(hoverAt(model, demoFile('x.tf'), 'locals {\n  r = var.reg|ion\n}\n', snapshot));
    assert.doesNotMatch(workspaceSensitive, /eu-central-1|eu-west-1/, 'lower sources are hidden too once the winner is sensitive');
    assert.match(workspaceSensitive, /\(sensitive\)/);
    model.dispose();
  });

  test('on a tfvars key: shows that the workspace value wins over this entry', async () => {
    const { model } = await loadDemoModel();
    const text = textOf(hoverAt(model, demoFile('terraform.tfvars'), 'reg|ion = "eu-central-1"\n'));
    assert.match(text, /Value used by a run: `"eu-north-1"` from workspace variable \(demo-app\)/);
    assert.match(text, /Overrides: `"eu-central-1"` from terraform\.tfvars/);
    model.dispose();
  });

  test('says why workspace values are unknown, and nothing off a variable', async () => {
    const { model } = await loadDemoModel();
    const signedOut = linkedSnapshot(model, { workspace: { kind: 'signed-out', hostname: 'app.terraform.io' }, variables: undefined });
    assert.match(textOf(hoverAt(model, demoFile('x.tf'), 'locals {\n  r = var.environ|ment\n}\n', signedOut)), /sign in to see workspace variables/);
    assert.equal(hoverAt(model, demoFile('x.tf'), 'loc|als {\n  r = var.environment\n}\n'), undefined);
    model.dispose();
  });
});

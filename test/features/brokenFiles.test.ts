// Half-typed and broken files: every provider still answers with what can be read, and nothing throws.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { provideCodeLenses } from '../../server/src/features/codeLens';
import { provideCompletion } from '../../server/src/features/completion';
import { computeFolderDiagnostics } from '../../server/src/features/diagnostics';
import { provideHover } from '../../server/src/features/hover';
import { provideRunActions } from '../../server/src/features/runActions';
import { linkedSnapshot, loadMemoryModel } from './helpers';
import path from 'node:path';

const broken = {
  'main.tf': 'terraform {\n  cloud {\n    organization = "acme-demo"\n    workspaces {\n      name = "demo-app"\n',
  'variables.tf': 'variable "region" {\n  type = string\n\nvariable "count" {\n  type = map(\n}\n\nresource "x" "y" {\n  a = var.region\n  b = var.\n',
  'terraform.tfvars': 'region = \ncount = {\n',
  'broken.auto.tfvars.json': '{ "region": "eu", ',
};

describe('providers on broken files', () => {
  test('diagnostics, completion, hover, run actions and code lenses answer without throwing', async () => {
    const { model, parser, folder } = await loadMemoryModel(broken);
    const snapshot = linkedSnapshot(model);
    const diagnostics = computeFolderDiagnostics(model, snapshot, parser);
    for (const list of diagnostics.values()) for (const d of list) assert.equal(d.source, 'hcp-terraform');

    const file = path.join(folder, 'variables.tf');
    const lines = broken['variables.tf'].split('\n');
    const line = lines.findIndex((l) => l.includes('b = var.'));
    const list = await provideCompletion({ model, snapshot, file, text: broken['variables.tf'], position: { line, character: lines[line].length }, parser }, {
      organizationNames: async () => [],
      workspaceNames: async () => [],
    });
    assert.ok(list.items.some((item) => item.label === 'region'), 'the declared variable before the break still completes');

    for (let l = 0; l < lines.length; l++) {
      for (let c = 0; c <= lines[l].length; c++) {
        provideHover(model, snapshot, file, { line: l, character: c });
        provideRunActions({ model, snapshot, file, text: broken['variables.tf'], range: { start: { line: l, character: c }, end: { line: l, character: c } } });
      }
    }
    provideCodeLenses(model, snapshot, path.join(folder, 'main.tf'), Date.now());
    model.dispose();
  });
});

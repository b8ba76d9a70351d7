// The prompt-free fix of `missing-value`: Add "<name>" to terraform.tfvars, a placeholder of the declared type in the
// file Terraform loads by itself. The exact edit: created with the entry, appended after the last entry (closed) or
// at the document's end (open), never a second entry for a key, nothing when the file's end is not known safely.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { CodeAction, Diagnostic, WorkspaceEdit } from 'vscode-languageserver';
import { computeFolderDiagnostics } from '../../server/src/features/diagnostics';
import { folderFacts } from '../../server/src/features/folderFacts';
import { parseHclExpression } from '../../server/src/features/hclValues';
import { clientCanCreateFiles, provideQuickFixes } from '../../server/src/features/quickFixes';
import { placeholderFor } from '../../server/src/features/typePlaceholders';
import type { ModuleFolderModel, TerraformParser } from '../../server/src/model';
import { checkValueAgainstType } from '../../server/src/model/typeFit';
import { demoFile, linkedSnapshot, loadDemoModel, loadMemoryModel, uriOf } from './helpers';

/** The missing-value diagnostics of the folder, as a client hands them back (through JSON), by variable name. */
function missingValues(model: ModuleFolderModel, parser: TerraformParser): Map<string, { file: string; diagnostic: Diagnostic }> {
  const found = new Map<string, { file: string; diagnostic: Diagnostic }>();
  for (const [file, list] of computeFolderDiagnostics(model, linkedSnapshot(model), parser)) {
    for (const diagnostic of list) {
      const name = /Variable "([^"]+)" has no value/.exec(String(diagnostic.message))?.[1];
      if (diagnostic.code === 'missing-value' && name) found.set(name, { file, diagnostic: JSON.parse(JSON.stringify(diagnostic)) as Diagnostic });
    }
  }
  return found;
}

/** The "Add … to terraform.tfvars" fix for the variable's diagnostic, in an editor that cannot ask its user anything. */
function addFix(model: ModuleFolderModel, parser: TerraformParser, name: string, diagnostic = missingValues(model, parser).get(name)): CodeAction | undefined {
  assert.ok(diagnostic, `no missing-value diagnostic for ${name}`);
  const actions = provideQuickFixes({ model, snapshot: linkedSnapshot(model), file: diagnostic.file, text: model.openText(diagnostic.file) ?? '', diagnostics: [diagnostic.diagnostic], parser, prompts: {} });
  return actions.find((action) => action.title === `Add "${name}" to terraform.tfvars`);
}

const variables = [
  'variable "name" {\n  type = string\n}',
  'variable "count_of" {\n  type = number\n}',
  'variable "ports" {\n  type = list(number)\n}',
  'variable "service" {\n  type = object({ port = number, public = bool, tags = optional(map(string)), dash-key = tuple([string, number]) })\n}',
  'variable "untyped" {}',
  'variable "password" {\n  type      = string\n  sensitive = true\n}',
].join('\n\n');

describe('quick fix: add the variable to terraform.tfvars', () => {
  test('no terraform.tfvars: the file is created with the entry, a placeholder of the declared type', async () => {
    const { model, parser, folder } = await loadMemoryModel({ 'variables.tf': `${variables}\n` });
    try {
      const uri = uriOf(path.join(folder, 'terraform.tfvars'));
      const expected = (entry: string): WorkspaceEdit => ({
        documentChanges: [
          { kind: 'create', uri, options: { ignoreIfExists: true } },
          { textDocument: { uri, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: `${entry}\n` }] },
        ],
      });
      assert.deepEqual(addFix(model, parser, 'name')?.edit, expected('name = ""'));
      assert.deepEqual(addFix(model, parser, 'count_of')?.edit, expected('count_of = 0'));
      assert.deepEqual(addFix(model, parser, 'ports')?.edit, expected('ports = []'));
      assert.deepEqual(addFix(model, parser, 'service')?.edit, expected('service = { port = 0, public = false, dash-key = ["", 0] }'));
      assert.deepEqual(addFix(model, parser, 'untyped')?.edit, expected('untyped = ""'));
      // A plain edit, no command: it needs no prompt and no service.
      assert.equal(addFix(model, parser, 'name')?.command, undefined);
      // A client that cannot create files (no `create` resource operation) is not offered an edit it cannot apply.
      const diagnostic = missingValues(model, parser).get('name')!;
      const withoutCreate = provideQuickFixes({ model, snapshot: linkedSnapshot(model), file: diagnostic.file, text: '', diagnostics: [diagnostic.diagnostic], parser, prompts: {}, canCreateFiles: false });
      assert.deepEqual(withoutCreate.filter((action) => action.edit?.documentChanges), []);
    } finally {
      model.dispose();
    }
  });

  test('a closed terraform.tfvars: the entry goes on a line of its own after the last entry', async () => {
    const { model, parser } = await loadDemoModel();
    try {
      // The demo's terraform.tfvars ends with `replica_count = "three"` on line 10 (0-based 9), 23 characters long.
      assert.deepEqual(addFix(model, parser, 'environment')?.edit, {
        changes: { [uriOf(demoFile('terraform.tfvars'))]: [{ range: { start: { line: 9, character: 23 }, end: { line: 9, character: 23 } }, newText: '\nenvironment = ""' }] },
      });
    } finally {
      model.dispose();
    }
  });

  test('an open terraform.tfvars: appended at the end of the document, after its last comment, on a new line', async () => {
    const { model, parser, folder } = await loadMemoryModel({ 'variables.tf': `${variables}\n` });
    const tfvars = path.join(folder, 'terraform.tfvars');
    try {
      model.openDocument(tfvars, 'name = "web"\n# the end');
      assert.deepEqual(addFix(model, parser, 'count_of')?.edit, {
        changes: { [uriOf(tfvars)]: [{ range: { start: { line: 1, character: 9 }, end: { line: 1, character: 9 } }, newText: '\ncount_of = 0\n' }] },
      });
      model.openDocument(tfvars, 'name = "web"\n');
      assert.deepEqual(addFix(model, parser, 'count_of')?.edit, {
        changes: { [uriOf(tfvars)]: [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, newText: 'count_of = 0\n' }] },
      });
    } finally {
      model.dispose();
    }
  });

  test('never a second entry for the key, and no edit into a file whose end is not known safely', async () => {
    const { model, parser, folder } = await loadMemoryModel({ 'variables.tf': `${variables}\n` });
    const tfvars = path.join(folder, 'terraform.tfvars');
    try {
      // A secret is never written into a file: its value goes in a sensitive workspace variable.
      assert.ok(missingValues(model, parser).has('password'), 'the sensitive variable has no missing-value diagnostic to fix');
      assert.equal(addFix(model, parser, 'password'), undefined);
      // A name the client mangled in the diagnostic's data (or one no longer declared) is never written.
      const mangled = JSON.parse(JSON.stringify(missingValues(model, parser).get('count_of')!).replace('"name":"count_of"', '"name":"x = 1\\nevil"'));
      assert.equal(mangled.diagnostic.data.name, 'x = 1\nevil');
      assert.deepEqual(provideQuickFixes({ model, snapshot: linkedSnapshot(model), file: mangled.file, text: '', diagnostics: [mangled.diagnostic], parser, prompts: {} }).filter((action) => action.edit), []);
      // The diagnostic was computed before the key was added (the client hands back the one it shows).
      const stale = missingValues(model, parser).get('name');
      model.openDocument(tfvars, 'name = "web"\n');
      assert.equal(addFix(model, parser, 'name', stale), undefined);
      // Broken (a brace left open): an entry appended at the end would land inside it.
      model.openDocument(tfvars, 'ports = {\n');
      assert.equal(addFix(model, parser, 'count_of'), undefined);
      // Over the size limit: the model holds no entry of it.
      await model.closeDocument(tfvars);
      await model.setMaxFileSize(1);
      await model.fileChanged(tfvars, 'count_of = 3\n');
      assert.equal(addFix(model, parser, 'name'), undefined);
    } finally {
      model.dispose();
    }
  });

  test('each placeholder is a literal its type accepts', async () => {
    const { model, parser } = await loadMemoryModel({ 'variables.tf': `${variables}\n` });
    try {
      for (const [name, declaration] of folderFacts(model).variablesByName) {
        const type = declaration.type?.parsed;
        const parsed = parseHclExpression(parser, placeholderFor(type));
        assert.ok(parsed.ok && parsed.literal, `${name}: ${placeholderFor(type)} is a literal`);
        if (type) assert.equal(checkValueAgainstType(parsed.literal.value, type), undefined, `${name}: ${placeholderFor(type)} fits`);
      }
    } finally {
      model.dispose();
    }
  });

  test('a client can create files when it declares documentChanges and the create resource operation', () => {
    assert.equal(clientCanCreateFiles({ workspace: { workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] } } }), true);
    assert.equal(clientCanCreateFiles({ workspace: { workspaceEdit: { documentChanges: true } } }), false);
    assert.equal(clientCanCreateFiles({ workspace: { workspaceEdit: { resourceOperations: ['create'] } } }), false);
    assert.equal(clientCanCreateFiles({}), false);
  });
});

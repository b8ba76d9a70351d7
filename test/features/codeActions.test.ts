import type { ClientPrompts } from '../../server/src/features/commands';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { CodeAction, Diagnostic } from 'vscode-languageserver';
import { computeFolderDiagnostics } from '../../server/src/features/diagnostics';
import { provideQuickFixes } from '../../server/src/features/quickFixes';
import { provideRunActions, runActionKinds } from '../../server/src/features/runActions';
import type { ModuleFolderModel, TerraformParser } from '../../server/src/model';
import { demoFile, demoWorkspace, linkedSnapshot, loadDemoModel, loadMemoryModel, run, uriOf } from './helpers';

const hostname = demoWorkspace.hostname;

// As VS Code's client declares (initializationOptions.prompts): it asks for a missing variable value.
const vscodePrompts = { variableValue: true, changeRequestSubject: true };

function fixesFor(model: ModuleFolderModel, parser: TerraformParser, code: string, prompts: ClientPrompts = vscodePrompts): { file: string; actions: CodeAction[]; diagnostic: Diagnostic } {
  const snapshot = linkedSnapshot(model);
  const diagnostics = computeFolderDiagnostics(model, snapshot, parser);
  for (const [file, list] of diagnostics) {
    const diagnostic = list.find((d) => d.code === code);
    if (!diagnostic) continue;
    // The diagnostic travels through the client as JSON and comes back in the request.
    const roundTripped = JSON.parse(JSON.stringify(diagnostic)) as Diagnostic;
    const text = model.openText(file) ?? readFileSync(file, 'utf8');
    return { file, diagnostic, actions: provideQuickFixes({ model, snapshot, file, text, diagnostics: [roundTripped], parser, prompts }) };
  }
  assert.fail(`no ${code} diagnostic`);
}

function commandOf(action: CodeAction): { command: string; argument: unknown } {
  assert.ok(action.command, `${action.title} should carry a command`);
  return { command: action.command.command, argument: action.command.arguments?.[0] };
}

describe('quick fixes', () => {
  test('missing-value: set the workspace variable (createVariable with key and category), or add it to terraform.tfvars', async () => {
    const { model, parser } = await loadDemoModel();
    const { actions } = fixesFor(model, parser, 'missing-value');
    // The edit of the second: addToTfvars.test.ts.
    assert.deepEqual(actions.map((a) => a.title), ['Set workspace variable "environment" in demo-app…', 'Add "environment" to terraform.tfvars']);
    assert.equal(actions[0].kind, 'quickfix');
    assert.equal(actions[0].diagnostics?.[0].code, 'missing-value');
    assert.deepEqual(commandOf(actions[0]), {
      command: 'hcpTerraform.server.createVariable',
      argument: { hostname, workspaceId: demoWorkspace.id, key: 'environment', category: 'engine', sensitive: false },
    });
    model.dispose();
  });

  test('missing-value: also offers the value a -var-file tfvars file holds, plain for strings and HCL otherwise', async () => {
    const { model, parser } = await loadDemoModel();
    model.openDocument(demoFile('prod.tfvars'), 'environment = "prod"\n');
    const { actions } = fixesFor(model, parser, 'missing-value');
    assert.deepEqual(actions.map((a) => a.title), ['Set workspace variable "environment" in demo-app…', 'Set workspace variable "environment" in demo-app to the value in prod.tfvars', 'Add "environment" to terraform.tfvars']);
    // An editor that cannot ask for a value gets only the actions that carry one (or need none).
    assert.deepEqual(fixesFor(model, parser, 'missing-value', {}).actions.map((a) => a.title), ['Set workspace variable "environment" in demo-app to the value in prod.tfvars', 'Add "environment" to terraform.tfvars']);
    assert.deepEqual(commandOf(actions[1]).argument, { hostname, workspaceId: demoWorkspace.id, key: 'environment', category: 'engine', value: 'prod', hcl: false, sensitive: false });
    model.openDocument(demoFile('prod.tfvars'), 'environment = ["a"]\n');
    const hclValue = fixesFor(model, parser, 'missing-value').actions[1];
    assert.deepEqual(commandOf(hclValue).argument, { hostname, workspaceId: demoWorkspace.id, key: 'environment', category: 'engine', value: '["a"]', hcl: true, sensitive: false });
    model.dispose();
  });

  test('undeclared-workspace-variable: declare it in variables.tf after the last block, or delete it from the workspace', async () => {
    const { model, parser } = await loadDemoModel();
    const { actions } = fixesFor(model, parser, 'undeclared-workspace-variable');
    const [declare, remove] = actions;
    const variablesUri = pathToFileURL(demoFile('variables.tf')).toString();
    const lines = readFileSync(demoFile('variables.tf'), 'utf8').trimEnd().split('\n');
    assert.deepEqual(declare.edit?.changes?.[variablesUri], [{
      range: { start: { line: lines.length - 1, character: 1 }, end: { line: lines.length - 1, character: 1 } },
      newText: '\n\nvariable "legacy_flag" {\n  type = bool\n}',
    }]);
    assert.deepEqual(commandOf(remove), { command: 'hcpTerraform.server.deleteVariable', argument: { hostname, workspaceId: demoWorkspace.id, variableId: 'var-legacy-flag' } });
    model.dispose();
  });

  test('undeclared-variable: declare it', async () => {
    const { model, parser } = await loadDemoModel();
    const { actions } = fixesFor(model, parser, 'undeclared-variable');
    assert.equal(actions.length, 1);
    const edits = Object.values(actions[0].edit?.changes ?? {}).flat();
    assert.deepEqual(edits.map((e) => e.newText), ['\n\nvariable "owner_email" {}']);
    model.dispose();
  });

  test('invalid-hcl-value: turn off HCL only when the plain string fits the declared type', async () => {
    const { model, parser } = await loadMemoryModel({
      'main.tf': [
        'terraform {\n  cloud {\n    organization = "acme-demo"\n    workspaces {\n      name = "demo-app"\n    }\n  }\n}',
        'variable "tags" {\n  type = map(string)\n}',
        'variable "motd" {\n  type = string\n}',
        'variable "untyped" {}',
        'output "all" {\n  value = [var.tags, var.motd, var.untyped]\n}',
      ].join('\n\n'),
    });
    const invalidHcl = (id: string, key: string, value: string) => ({ id, key, value, category: 'engine' as const, hcl: true, sensitive: false });
    const variables = [invalidHcl('var-tags', 'tags', '{ team = "web"'), invalidHcl('var-motd', 'motd', 'hello {'), invalidHcl('var-untyped', 'untyped', '[1,')];
    const snapshot = linkedSnapshot(model, { variables });
    const file = [...computeFolderDiagnostics(model, snapshot, parser)].find(([, list]) => list.some((d) => d.code === 'invalid-hcl-value'))![0];
    const diagnostics = computeFolderDiagnostics(model, snapshot, parser).get(file)!.filter((d) => d.code === 'invalid-hcl-value');
    assert.equal(diagnostics.length, 3);
    const offered = (key: string) => {
      const diagnostic = diagnostics.find((d) => String(d.message).includes(`"${key}"`))!;
      const roundTripped = JSON.parse(JSON.stringify(diagnostic)) as Diagnostic;
      return provideQuickFixes({ model, snapshot, file, text: model.openText(file) ?? '', diagnostics: [roundTripped], parser }).map((action) => action.title);
    };
    // A map(string) cannot be a plain string: that fix would only trade the invalid HCL for a type mismatch.
    assert.deepEqual(offered('tags'), []);
    assert.deepEqual(offered('motd'), ['Use workspace variable "motd" as a plain string (turn off HCL)']);
    assert.deepEqual(offered('untyped'), ['Use workspace variable "untyped" as a plain string (turn off HCL)'], 'no type: any string fits');
    model.dispose();
  });

  test("invalid-hcl-value on the demo's map(object) variable: no plain-string fix; sensitive-exposed: mark sensitive", async () => {
    const { model, parser } = await loadDemoModel();
    assert.deepEqual(fixesFor(model, parser, 'invalid-hcl-value').actions, []);
    assert.deepEqual(commandOf(fixesFor(model, parser, 'sensitive-exposed').actions[0]), {
      command: 'hcpTerraform.server.updateVariable',
      argument: { hostname, workspaceId: demoWorkspace.id, variableId: 'var-db-password', sensitive: true },
    });
    model.dispose();
  });

  test('overridden-by-workspace: remove the tfvars line, or delete the workspace variable', async () => {
    const { model, parser } = await loadDemoModel();
    const { actions, file } = fixesFor(model, parser, 'overridden-by-workspace');
    const line = readFileSync(file, 'utf8').split('\n').findIndex((l) => l.startsWith('region'));
    assert.deepEqual(actions[0].edit?.changes?.[pathToFileURL(file).toString()], [{ range: { start: { line, character: 0 }, end: { line: line + 1, character: 0 } }, newText: '' }]);
    assert.deepEqual(commandOf(actions[1]), { command: 'hcpTerraform.server.deleteVariable', argument: { hostname, workspaceId: demoWorkspace.id, variableId: 'var-region' } });
    model.dispose();
  });

  test('ignores diagnostics of other sources and mangled data', async () => {
    const { model, parser } = await loadDemoModel();
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
    const diagnostics: Diagnostic[] = [
      { range, message: 'x', source: 'terraform', code: 'missing-value', data: { code: 'missing-value', name: 'a', workspaceId: 'ws' } },
      { range, message: 'x', source: 'hcp-terraform', code: 'missing-value', data: { code: 'missing-value', name: 42 } },
      { range, message: 'x', source: 'hcp-terraform', code: 'missing-value' },
    ];
    assert.deepEqual(provideQuickFixes({ model, snapshot: linkedSnapshot(model), file: demoFile('main.tf'), text: '', diagnostics, parser }), []);
    model.dispose();
  });
});

describe('run actions', () => {
  const mainText = () => readFileSync(demoFile('main.tf'), 'utf8');
  const positionOf = (text: string, needle: string) => {
    const before = text.slice(0, text.indexOf(needle)).split('\n');
    return { line: before.length - 1, character: before[before.length - 1].length };
  };

  test('queue plans (plain, targeting and replacing the resource at the cursor, destroy, refresh-only) and plan local changes', async () => {
    const { model } = await loadDemoModel();
    const text = mainText();
    const at = positionOf(text, 'length = 2');
    const actions = provideRunActions({ model, snapshot: linkedSnapshot(model), file: demoFile('main.tf'), text, range: { start: at, end: at } });
    const byKind = new Map(actions.map((a) => [a.kind, commandOf(a)]));
    const base = { hostname, workspaceId: demoWorkspace.id, message: 'Queued from the editor' };
    assert.deepEqual(byKind.get(runActionKinds.queuePlan), { command: 'hcpTerraform.server.queuePlan', argument: base });
    assert.deepEqual(byKind.get(runActionKinds.targetedPlan)?.argument, { ...base, targetAddrs: ['random_pet.app_name'] });
    assert.deepEqual(byKind.get(runActionKinds.replacePlan)?.argument, { ...base, replaceAddrs: ['random_pet.app_name'] });
    assert.deepEqual(byKind.get(runActionKinds.destroyPlan)?.argument, { ...base, isDestroy: true });
    assert.deepEqual(byKind.get(runActionKinds.refreshOnlyPlan)?.argument, { ...base, refreshOnly: true });
    assert.deepEqual(byKind.get(runActionKinds.planLocalChanges), {
      command: 'hcpTerraform.server.planLocalChanges',
      argument: { hostname, folderUri: pathToFileURL(model.folder).toString(), workspaceId: demoWorkspace.id, message: 'Local changes from the editor' },
    });
    assert.equal(byKind.has(runActionKinds.applyRun), false, 'no run awaits confirmation');
    model.dispose();
  });

  test('only the plans this token may queue: none for a reader, no destroy plan without can-queue-destroy', async () => {
    const { model } = await loadDemoModel();
    const text = mainText();
    const at = positionOf(text, 'length = 2');
    const kinds = (permissions: { canQueueRun?: boolean; canQueueDestroy?: boolean }) =>
      new Set(
        provideRunActions({ model, snapshot: linkedSnapshot(model, { workspace: { kind: 'linked', workspace: { ...demoWorkspace, permissions } } }), file: demoFile('main.tf'), text, range: { start: at, end: at } }).map((a) => a.kind),
      );
    const reader = kinds({ canQueueRun: false, canQueueDestroy: false });
    for (const kind of [runActionKinds.queuePlan, runActionKinds.targetedPlan, runActionKinds.replacePlan, runActionKinds.destroyPlan, runActionKinds.refreshOnlyPlan, runActionKinds.planLocalChanges]) {
      assert.equal(reader.has(kind), false, kind);
    }
    const planner = kinds({ canQueueRun: true, canQueueDestroy: false });
    assert.ok(planner.has(runActionKinds.queuePlan) && planner.has(runActionKinds.planLocalChanges));
    assert.equal(planner.has(runActionKinds.destroyPlan), false);
    model.dispose();
  });

  test('apply / discard only when the run awaiting confirmation allows it; cancel a running one', async () => {
    const { model } = await loadDemoModel();
    const text = mainText();
    const awaiting = run('run-wait', 'planned', { isConfirmable: true, isDiscardable: true });
    const running = run('run-busy', 'applying', { isCancelable: true });
    const at = { line: 0, character: 0 };
    const actions = provideRunActions({ model, snapshot: linkedSnapshot(model, { runs: { current: awaiting, awaitingConfirmation: awaiting, active: running } }), file: demoFile('main.tf'), text, range: { start: at, end: at } });
    const runCommands = actions.filter((a) => a.command?.command.match(/applyRun|discardRun|cancelRun|forceCancelRun/)).map(commandOf);
    assert.deepEqual(runCommands, [
      { command: 'hcpTerraform.server.applyRun', argument: { hostname, runId: 'run-wait' } },
      { command: 'hcpTerraform.server.discardRun', argument: { hostname, runId: 'run-wait' } },
      { command: 'hcpTerraform.server.cancelRun', argument: { hostname, runId: 'run-busy' } },
    ]);
    const onlyDiscard = provideRunActions({ model, snapshot: linkedSnapshot(model, { runs: { awaitingConfirmation: run('run-p', 'policy_override', { isDiscardable: true }) } }), file: demoFile('main.tf'), text, range: { start: at, end: at } });
    assert.deepEqual(onlyDiscard.filter((a) => a.kind === runActionKinds.applyRun), []);
    model.dispose();
  });

  test('open a change request from the selection or a TODO comment at the cursor', async () => {
    const { model } = await loadDemoModel();
    const text = 'locals {\n  # TODO: rotate the database password\n  x = 1\n}\n';
    const file = demoFile('todo.tf');
    const snapshot = linkedSnapshot(model);
    const fromTodo = provideRunActions({ model, snapshot, file, text, range: { start: { line: 1, character: 5 }, end: { line: 1, character: 5 } } }).find((a) => a.kind === runActionKinds.createChangeRequest);
    assert.deepEqual(commandOf(fromTodo!).argument, { hostname, organization: 'acme-demo', workspaceId: demoWorkspace.id, subject: 'rotate the database password', message: 'TODO in `todo.tf:2`.' });
    // A selection: its text is never sent (it may be a secret); the client asks for the subject.
    const selection = { start: { line: 2, character: 2 }, end: { line: 2, character: 7 } };
    const fromSelection = provideRunActions({ model, snapshot, file, text, range: selection, prompts: vscodePrompts }).find((a) => a.kind === runActionKinds.createChangeRequest);
    assert.equal(fromSelection?.title, 'Open a change request in demo-app about todo.tf:3…');
    assert.deepEqual(commandOf(fromSelection!).argument, { hostname, organization: 'acme-demo', workspaceId: demoWorkspace.id, message: 'About `todo.tf:3`.' });
    assert.ok(!JSON.stringify(fromSelection).includes('x = 1'), 'the selected text went into the action');
    const multiLine = provideRunActions({ model, snapshot, file, text, range: { start: { line: 1, character: 0 }, end: { line: 3, character: 0 } }, prompts: vscodePrompts }).find((a) => a.kind === runActionKinds.createChangeRequest);
    assert.equal(multiLine?.title, 'Open a change request in demo-app about todo.tf:2-3…');
    const elsewhere = provideRunActions({ model, snapshot, file, text, range: selection });
    assert.equal(elsewhere.some((a) => a.kind === runActionKinds.createChangeRequest), false, 'offered to a client that cannot ask for a subject');
    const nothing = provideRunActions({ model, snapshot, file, text, range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } } });
    assert.equal(nothing.some((a) => a.kind === runActionKinds.createChangeRequest), false);
    model.dispose();
  });

  test('nothing to run when the folder is not linked (or its workspace is unknown)', async () => {
    const { model } = await loadDemoModel();
    for (const workspace of [{ kind: 'not-linked' as const }, { kind: 'loading' as const }, { kind: 'signed-out' as const, hostname }]) {
      assert.deepEqual(provideRunActions({ model, snapshot: linkedSnapshot(model, { workspace }), file: demoFile('main.tf'), text: '', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }), []);
    }
    model.dispose();
  });
});

describe('quick fixes for a tfvars value no variable declares', () => {
  async function fixes(files: Record<string, string>) {
    const { model, parser, folder } = await loadMemoryModel(files);
    const file = path.join(folder, 'terraform.tfvars');
    const diagnostic = computeFolderDiagnostics(model, undefined, parser).get(file)?.find((d) => d.code === 'undeclared-tfvars-value');
    assert.ok(diagnostic, 'an undeclared-tfvars-value diagnostic');
    const roundTripped = JSON.parse(JSON.stringify(diagnostic)) as Diagnostic;
    const actions = provideQuickFixes({ model, snapshot: undefined, file, text: files['terraform.tfvars']!, diagnostics: [roundTripped], parser });
    return { model, folder, file, actions };
  }

  test('declares it, typed from its value, after the last block of the .tf file with the most variables; or removes the line', async () => {
    const { model, folder, file, actions } = await fixes({
      'main.tf': 'variable "a" {}\n',
      'inputs.tf': 'variable "b" {}\n\nvariable "c" {\n  type = string\n}\n',
      'terraform.tfvars': 'b = "x"\nports = [80, 443]\n',
    });
    assert.deepEqual(actions.map((a) => a.title), ['Declare variable "ports"', 'Remove "ports" from this file']);
    assert.deepEqual(actions[0]!.edit?.changes, {
      [uriOf(path.join(folder, 'inputs.tf'))]: [{ range: { start: { line: 4, character: 1 }, end: { line: 4, character: 1 } }, newText: '\n\nvariable "ports" {\n  type = list(number)\n}' }],
    });
    assert.deepEqual(actions[1]!.edit?.changes, { [uriOf(file)]: [{ range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } }, newText: '' }] });
    model.dispose();
  });

  test('with no variable block anywhere, declares it in a new variables.tf, never in the tfvars file', async () => {
    const { model, folder, actions } = await fixes({ 'main.tf': 'resource "null_resource" "x" {}\n', 'terraform.tfvars': 'name = "web"\n' });
    const uri = uriOf(path.join(folder, 'variables.tf'));
    assert.deepEqual(actions[0]!.edit, {
      documentChanges: [
        { kind: 'create', uri, options: { ignoreIfExists: true } },
        { textDocument: { uri, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'variable "name" {\n  type = string\n}\n' }] },
      ],
    });
    model.dispose();
  });
});

import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describe, test } from 'node:test';
import { CompletionItemKind } from 'vscode-languageserver';
import type { CompletionItem, CompletionList } from 'vscode-languageserver';
import { provideCompletion, resolveCompletionItem } from '../../server/src/features/completion';
import { maxCompletionItems } from '../../server/src/features/completionRanking';
import type { NameLookups } from '../../server/src/features/completion';
import type { ModuleFolderModel, TerraformParser } from '../../server/src/model';
import { demoFile, linkedSnapshot, loadDemoModel, loadMemoryModel } from './helpers';
import path from 'node:path';

const noLookups: NameLookups = {
  organizationNames: async () => assert.fail('no organization lookup expected'),
  workspaceNames: async () => assert.fail('no workspace lookup expected'),
};

/** Opens `text` as `file` in the model, with the cursor at the `|` marker, and completes there. */
async function completeAt(
  model: ModuleFolderModel,
  file: string,
  marked: string,
  options: { snapshot?: Parameters<typeof provideCompletion>[0]['snapshot']; lookups?: NameLookups; shared?: boolean; sharedData?: boolean; parser?: TerraformParser } = {},
): Promise<CompletionList> {
  const offset = marked.indexOf('|');
  const text = marked.replace('|', '');
  model.openDocument(file, text);
  const before = text.slice(0, offset).split('\n');
  const position = { line: before.length - 1, character: before[before.length - 1].length };
  return provideCompletion({ model, snapshot: options.snapshot, file, text, position, parser: options.parser, itemDefaultsEditRange: options.shared, itemDefaultsData: options.sharedData }, options.lookups ?? noLookups);
}

function item(list: CompletionList, label: string): CompletionItem {
  const found = list.items.find((candidate) => candidate.label === label);
  assert.ok(found, `expected an item ${label}; got ${list.items.map((i) => i.label).join(', ')}`);
  return found;
}

function docOf(candidate: CompletionItem): string {
  const doc = candidate.documentation;
  return typeof doc === 'string' ? doc : doc?.value ?? '';
}

describe('completion after var.', () => {
  test('offers every declared variable with type, description and where its value comes from', async () => {
    const { model } = await loadDemoModel();
    const list = await completeAt(model, demoFile('outputs.tf'), 'output "x" {\n  value = var.|\n}\n', { snapshot: linkedSnapshot(model) });
    const declared = list.items.filter((i) => !i.additionalTextEdits).map((i) => i.label);
    assert.deepEqual(declared, ['allowed_cidrs', 'db_password', 'enable_monitoring', 'environment', 'instance_count', 'region', 'replica_count', 'services', 'tags']);
    const region = item(list, 'region');
    assert.match(region.detail ?? '', /^string · from workspace variable \(demo-app\)/);
    assert.match(docOf(region), /Region the app is described for/);
    assert.match(docOf(region), /eu-north-1/);
    assert.match(item(list, 'environment').detail ?? '', /no value/);
    assert.match(item(list, 'replica_count').detail ?? '', /from terraform\.tfvars/);
    assert.match(item(list, 'enable_monitoring').detail ?? '', /TF_VAR_enable_monitoring/);
    // plain identifiers are left to the client's word replacement (no per-item copy of a large list)
    assert.equal(item(list, 'region').textEdit, undefined);
    model.dispose();
  });

  test('gives names a client would split (with a hyphen) their own text edit over the typed part', async () => {
    const { model } = await loadMemoryModel({ 'variables.tf': 'variable "my-var" {}\nvariable "plain" {}\n' });
    const file = path.join(model.folder, 'main.tf');
    const list = await completeAt(model, file, 'locals {\n  x = var.my|\n}\n');
    assert.deepEqual(item(list, 'my-var').textEdit, { range: { start: { line: 1, character: 10 }, end: { line: 1, character: 12 } }, newText: 'my-var' });
    assert.equal(item(list, 'plain').textEdit, undefined);
    model.dispose();
  });

  test('never shows a sensitive value', async () => {
    const { model } = await loadDemoModel();
    const list = await completeAt(model, demoFile('outputs.tf'), 'output "x" {\n  value = var.db|\n}\n', { snapshot: linkedSnapshot(model) });
    const text = JSON.stringify(list);
    assert.doesNotMatch(text, /hunter2-demo/);
    assert.match(docOf(item(list, 'db_password')), /\(sensitive\)/);
    model.dispose();
  });

  test('offers undeclared engine workspace variables with an edit that declares them, typed from the value', async () => {
    const { model } = await loadDemoModel();
    const text = 'locals {\n  flag = var.leg|\n}\n\n';
    const list = await completeAt(model, demoFile('extra.tf'), text, { snapshot: linkedSnapshot(model) });
    const legacy = item(list, 'legacy_flag');
    const [edit] = legacy.additionalTextEdits ?? [];
    assert.equal(edit.newText, '\n\nvariable "legacy_flag" {\n  type = bool\n}\n');
    assert.deepEqual(edit.range.start, { line: 4, character: 0 }, 'appended at the end of the current file');
    assert.equal(list.items.filter((i) => i.additionalTextEdits).length, 1, 'only undeclared engine variables (not env ones)');
    model.dispose();
  });

  test('still completes a half-typed var. at the very end of a broken file, declaring at the start', async () => {
    const { model } = await loadDemoModel();
    const list = await completeAt(model, demoFile('broken.tf'), 'resource "x" "y" {\n  count = var.|', { snapshot: linkedSnapshot(model) });
    assert.ok(list.items.some((i) => i.label === 'instance_count'));
    const legacy = item(list, 'legacy_flag');
    assert.deepEqual(legacy.additionalTextEdits?.[0].range.start, { line: 0, character: 0 });
    model.dispose();
  });

  test('uses the shared edit range when the client supports itemDefaults, and offers no workspace items while unknown', async () => {
    const { model } = await loadDemoModel();
    const list = await completeAt(model, demoFile('outputs.tf'), 'output "x" {\n  value = var.re|gion\n}\n', { shared: true });
    assert.deepEqual(list.itemDefaults?.editRange, { start: { line: 1, character: 14 }, end: { line: 1, character: 20 } });
    assert.equal(list.items.find((i) => i.label === 'region')?.textEdit, undefined);
    assert.equal(list.items.some((i) => i.label === 'legacy_flag'), false);
    model.dispose();
  });
});

describe('completion in tfvars and the cloud block', () => {
  test('offers declared variables not yet set in that tfvars file, at top level only', async () => {
    const { model } = await loadDemoModel();
    const file = demoFile('terraform.tfvars');
    const list = await completeAt(model, file, 'region = "x"\nins|\n');
    const labels = list.items.map((i) => i.label);
    assert.ok(labels.includes('instance_count'));
    assert.equal(labels.includes('region'), false, 'already set in this file');
    assert.equal(item(list, 'instance_count').textEdit && 'newText' in item(list, 'instance_count').textEdit! ? (item(list, 'instance_count').textEdit as { newText: string }).newText : undefined, 'instance_count = ');
    const nested = await completeAt(model, file, 'tags = {\n  te|\n}\n');
    assert.equal(nested.items.length, 0, 'not inside an object value');
    model.dispose();
  });

  test('offers organization and workspace names from the host inside the cloud block', async () => {
    const { model } = await loadMemoryModel({ 'main.tf': 'terraform {\n  cloud {\n    organization = "acme-demo"\n    workspaces {\n      name = "demo-app"\n    }\n  }\n}\n' });
    const file = path.join(model.folder, 'main.tf');
    const calls: string[] = [];
    const lookups: NameLookups = {
      organizationNames: async (hostname) => (calls.push(`orgs@${hostname}`), ['acme-demo', 'acme-free']),
      workspaceNames: async (hostname, organization) => (calls.push(`ws@${hostname}/${organization}`), ['demo-app', 'staging-api']),
    };
    const orgs = await completeAt(model, file, 'terraform {\n  cloud {\n    organization = "ac|"\n    workspaces {\n      name = "demo-app"\n    }\n  }\n}\n', { lookups });
    assert.deepEqual(orgs.items.map((i) => i.label), ['acme-demo', 'acme-free']);
    assert.deepEqual(orgs.items[0].textEdit, { range: { start: { line: 2, character: 20 }, end: { line: 2, character: 22 } }, newText: 'acme-demo' });
    const workspaces = await completeAt(model, file, 'terraform {\n  cloud {\n    organization = "acme-demo"\n    workspaces {\n      name = "|"\n    }\n  }\n}\n', { lookups });
    assert.deepEqual(workspaces.items.map((i) => i.label), ['demo-app', 'staging-api']);
    assert.deepEqual(calls, ['orgs@app.terraform.io', 'ws@app.terraform.io/acme-demo']);
    const failing: NameLookups = { organizationNames: async () => { throw new Error('signed out'); }, workspaceNames: async () => [] };
    const none = await completeAt(model, file, 'terraform {\n  cloud {\n    organization = "|"\n  }\n}\n', { lookups: failing });
    assert.deepEqual(none.items, []);
    model.dispose();
  });
});

describe('completion of keys in a .tfvars.json file', () => {
  const variables = 'variable "region" {\n  type = string\n}\n\nvariable "instance_count" {\n  type = number\n}\n\nvariable "tags" {\n  type = map(string)\n}\n';
  async function jsonModel() {
    const { model } = await loadMemoryModel({ 'variables.tf': variables, 'extra.auto.tfvars.json': '{}\n' });
    return { model, file: path.join(model.folder, 'extra.auto.tfvars.json') };
  }

  test('a quoted key being typed is completed with the declared variables not set yet, quoted, followed by its colon', async () => {
    const { model, file } = await jsonModel();
    const list = await completeAt(model, file, '{\n  "region": "eu-west-1",\n  "ins|\n}\n');
    assert.deepEqual(list.items.map((i) => i.label).sort(), ['instance_count', 'tags'], 'region is set in this file already');
    const instanceCount = item(list, 'instance_count');
    assert.deepEqual(instanceCount.textEdit, { range: { start: { line: 2, character: 2 }, end: { line: 2, character: 6 } }, newText: '"instance_count": ' });
    assert.equal(instanceCount.filterText, '"instance_count"', 'filtered against the replaced text, quote included');
    assert.equal(instanceCount.additionalTextEdits, undefined, 'the entry before has its comma');
    const closed = await completeAt(model, file, '{\n  "ins|"\n}\n');
    assert.deepEqual(item(closed, 'instance_count').textEdit, { range: { start: { line: 1, character: 2 }, end: { line: 1, character: 7 } }, newText: '"instance_count": ' }, 'the closing quote is replaced too');
    model.dispose();
  });

  test('a new entry after one without its comma gets the comma; renaming a key keeps its value', async () => {
    const { model, file } = await jsonModel();
    const list = await completeAt(model, file, '{\n  "region": "eu-west-1"\n  |\n}\n');
    const tags = item(list, 'tags');
    assert.deepEqual(tags.textEdit, { range: { start: { line: 2, character: 2 }, end: { line: 2, character: 2 } }, newText: '"tags": ' });
    assert.deepEqual(tags.additionalTextEdits, [{ range: { start: { line: 1, character: 23 }, end: { line: 1, character: 23 } }, newText: ',' }]);
    const renamed = await completeAt(model, file, '{\n  "reg|": "eu-west-1"\n}\n');
    assert.deepEqual(item(renamed, 'region').textEdit, { range: { start: { line: 1, character: 2 }, end: { line: 1, character: 7 } }, newText: '"region"' });
    model.dispose();
  });

  test('no keys where JSON expects a value, nor inside a nested object', async () => {
    const { model, file } = await jsonModel();
    assert.equal((await completeAt(model, file, '{\n  "region": "eu|"\n}\n')).items.length, 0);
    assert.equal((await completeAt(model, file, '{\n  "region": |\n}\n')).items.length, 0);
    assert.equal((await completeAt(model, file, '{\n  "tags": {\n    "te|"\n  }\n}\n')).items.length, 0);
    model.dispose();
  });
});

describe('completion of names in a half-typed cloud block', () => {
  const lookups: NameLookups = {
    organizationNames: async () => ['acme-demo', 'acme-free'],
    workspaceNames: async (hostname, organization) => (organization === 'acme-demo' && hostname === 'tfe.example.com' ? ['demo-app', 'staging-api'] : []),
  };
  const block = (organization: string, name: string) =>
    `terraform {\n  cloud {\n    hostname     = "tfe.example.com"\n    organization = ${organization}\n    workspaces {\n      name = ${name}\n    }\n  }\n}\n`;

  test('an organization string not closed yet completes, replacing what is typed', async () => {
    const { model, parser } = await loadMemoryModel({ 'main.tf': block('"acme-demo"', '"demo-app"') });
    const file = path.join(model.folder, 'main.tf');
    const list = await completeAt(model, file, block('"acme-|', '"demo-app"'), { lookups, parser });
    assert.deepEqual(list.items.map((i) => i.label), ['acme-demo', 'acme-free']);
    assert.deepEqual(item(list, 'acme-demo').textEdit, { range: { start: { line: 3, character: 20 }, end: { line: 3, character: 25 } }, newText: 'acme-demo' });
    assert.equal(item(list, 'acme-demo').detail, 'Organization on tfe.example.com');
    model.dispose();
  });

  test("a workspace name string not closed yet completes with the organization's workspaces", async () => {
    const { model, parser } = await loadMemoryModel({ 'main.tf': block('"acme-demo"', '"demo-app"') });
    const file = path.join(model.folder, 'main.tf');
    const list = await completeAt(model, file, block('"acme-demo"', '"st|'), { lookups, parser });
    assert.deepEqual(list.items.map((i) => i.label), ['demo-app', 'staging-api']);
    assert.deepEqual(item(list, 'staging-api').textEdit, { range: { start: { line: 5, character: 14 }, end: { line: 5, character: 16 } }, newText: 'staging-api' });
    model.dispose();
  });
});

describe('completion in a large module', () => {
  test('a cut list: at most maxCompletionItems, isIncomplete, ranked by use, documentation left to completionItem/resolve', async () => {
    const count = 600;
    const declarations = Array.from({ length: count }, (_, index) => `variable "v_${index}" {\n  description = "Setting ${index}"\n}\n`).join('\n');
    // v_7 is used five times, v_300 three times, v_42 once: the rest never.
    const uses = ['v_7', 'v_7', 'v_7', 'v_7', 'v_7', 'v_300', 'v_300', 'v_300', 'v_42'].map((name, index) => `  u${index} = var.${name}`).join('\n');
    const { model } = await loadMemoryModel({ 'variables.tf': declarations, 'uses.tf': `locals {\n${uses}\n}\n` });
    const file = path.join(model.folder, 'main.tf');

    const all = await completeAt(model, file, 'locals {\n  x = var.|\n}\n', { shared: true });
    assert.equal(all.isIncomplete, true);
    assert.equal(all.items.length, maxCompletionItems);
    const bySortText = [...all.items].sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? '')).map((i) => i.label);
    assert.deepEqual(bySortText.slice(0, 3), ['v_7', 'v_300', 'v_42'], 'most used first');
    assert.equal(all.items.every((i) => i.documentation === undefined && i.detail === undefined), true, 'no documentation or detail in a cut list');
    assert.equal(all.items.every((i) => i.labelDetails?.detail === ' any'), true, 'the type stays in the label details');
    assert.deepEqual(item(all, 'v_300').data, { folder: model.folder, name: 'v_300' }, 'a client without itemDefaults.data gets data per item');

    const resolved = resolveCompletionItem(item(all, 'v_300'), model, undefined);
    assert.match(docOf(resolved), /Setting 300/);
    assert.equal(resolved.detail, 'any · no value in the code');
    assert.equal(resolved.label, 'v_300');

    // A client that takes itemDefaults.data: the folder is sent once, the items carry no data; resolve reads the
    // name from the label once the client has applied the default.
    const light = await completeAt(model, file, 'locals {\n  x = var.|\n}\n', { shared: true, sharedData: true });
    assert.deepEqual(light.itemDefaults?.data, { folder: model.folder });
    assert.equal(light.items.every((i) => i.data === undefined), true);
    assert.ok(JSON.stringify(light).length < JSON.stringify(all).length * 0.8, `${JSON.stringify(light).length} bytes against ${JSON.stringify(all).length}`);
    const resolvedLight = resolveCompletionItem({ ...item(light, 'v_42'), data: light.itemDefaults?.data }, model, undefined);
    assert.match(docOf(resolvedLight), /Setting 42/);
    assert.equal(resolvedLight.detail, 'any · no value in the code');

    // What was typed narrows the list: prefix matches first, and nothing the client would show is left out.
    const typed = await completeAt(model, file, 'locals {\n  x = var.v_59|\n}\n', { shared: true });
    const labels = typed.items.map((i) => i.label);
    for (const expected of ['v_59', 'v_590', 'v_599']) assert.ok(labels.includes(expected), `${expected} in ${labels.slice(0, 20).join(', ')}`);
    assert.equal(labels.includes('v_7'), false, 'v_7 does not match v_59');
    model.dispose();
  });

  test('a cut list keeps what each item does: its kind, label details and the edit that declares a workspace variable', async () => {
    const { model } = await loadDemoModel();
    // 300 undeclared engine variables: more than a list holds, so the list is cut and its items copied light.
    const variables = Array.from({ length: 300 }, (_, index) => ({ id: `var-${index}`, key: `ws_${index}`, value: String(index), category: 'engine' as const, hcl: false, sensitive: false }));
    const list = await completeAt(model, demoFile('extra.tf'), 'locals {\n  x = var.ws_1|\n}\n\n', { snapshot: linkedSnapshot(model, { variables }), shared: true });
    assert.equal(list.isIncomplete, true);
    const undeclared = item(list, 'ws_1');
    assert.deepEqual(Object.keys(undeclared).sort(), ['additionalTextEdits', 'data', 'kind', 'label', 'labelDetails', 'sortText']);
    assert.equal(undeclared.kind, CompletionItemKind.Variable);
    assert.equal(undeclared.labelDetails?.description, 'workspace variable, not declared');
    assert.equal(undeclared.additionalTextEdits?.[0]?.newText, '\n\nvariable "ws_1" {\n  type = number\n}\n');
    assert.match(undeclared.sortText ?? '', /^1\d{4}$/, 'undeclared after declared, then by rank');
    assert.deepEqual(undeclared.data, { folder: model.folder, name: 'ws_1' });
    model.dispose();
  });

  test('the use ranking follows edits that change use counts, as a full sort of the counts would', async () => {
    const count = 400;
    const declarations = Array.from({ length: count }, (_, index) => `variable "v_${index}" {}\n`).join('');
    const { model } = await loadMemoryModel({ 'variables.tf': declarations });
    const file = path.join(model.folder, 'main.tf');
    const usesFile = path.join(model.folder, 'uses.tf');
    const random = fc.sample(fc.array(fc.nat(count - 1), { minLength: 0, maxLength: 12 }), { numRuns: 25, seed: 1313 });
    model.openDocument(usesFile, 'locals {}\n');
    for (const [round, used] of random.entries()) {
      // Each round the code uses other names (a few changed counts: the ranking moves those items), now and then
      // many at once (a full sort).
      const names = round % 7 === 6 ? Array.from({ length: 40 }, (_, index) => (index * 37 + round) % count) : used;
      model.changeDocument(usesFile, [{ text: `locals {\n${names.map((name, index) => `  u${index} = var.v_${name}`).join('\n')}\n}\n` }]);
      const list = await completeAt(model, file, 'locals {\n  x = var.|\n}\n', { shared: true });
      const counts = new Map<string, number>();
      for (const name of names) counts.set(`v_${name}`, (counts.get(`v_${name}`) ?? 0) + 1);
      const expected = Array.from({ length: count }, (_, index) => `v_${index}`)
        .sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0))
        .slice(0, maxCompletionItems);
      const ranked = [...list.items].sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? '')).map((i) => i.label);
      assert.deepEqual(ranked, expected, `round ${round}: uses ${JSON.stringify(names)}`);
    }
    model.dispose();
  });

  test('the use ranking follows references typed one keystroke at a time (edits read from their block)', async () => {
    const count = 300;
    const declarations = Array.from({ length: count }, (_, index) => `variable "v_${index}" {}\n`).join('');
    const { model } = await loadMemoryModel({ 'variables.tf': declarations });
    const usesFile = path.join(model.folder, 'uses.tf');
    let text = 'locals {\n  a = var.v_250\n}\n';
    model.openDocument(usesFile, text);
    const typed = ' + var.v_3 + var.v_299 + var.v_3 + var.v_30';
    const line = 1;
    let column = '  a = var.v_250'.length;
    for (const character of typed) {
      const position = { line, character: column++ };
      const lines = text.split('\n');
      lines[line] = lines[line].slice(0, position.character) + character + lines[line].slice(position.character);
      text = lines.join('\n');
      model.changeDocument(usesFile, [{ range: { start: position, end: position }, text: character }], text);
      const list = await provideCompletion({ model, snapshot: undefined, file: usesFile, text, position: { line, character: column }, itemDefaultsEditRange: true }, noLookups);
      const counts = new Map<string, number>();
      for (const match of text.matchAll(/var\.([A-Za-z0-9_]+)/g)) counts.set(match[1], (counts.get(match[1]) ?? 0) + 1);
      const typedName = /var\.([A-Za-z0-9_]*)$/.exec(lines[line].slice(0, column))?.[1];
      if (typedName === undefined || list.items.length === 0) continue; // not after `var.`: nothing ranked
      const ranked = [...list.items].sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? '')).map((i) => i.label);
      const expected = Array.from({ length: count }, (_, index) => `v_${index}`)
        .sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0))
        .filter((label) => label.startsWith(typedName.toLowerCase()))
        .slice(0, maxCompletionItems);
      assert.deepEqual(ranked.slice(0, expected.length), expected, `after typing up to column ${column}: ${lines[line]}`);
    }
    model.dispose();
  });

  test('a list within the bound is complete and carries its documentation, as before', async () => {
    const { model } = await loadMemoryModel({ 'variables.tf': 'variable "a" {\n  description = "The A"\n}\nvariable "b" {}\n' });
    const list = await completeAt(model, path.join(model.folder, 'main.tf'), 'locals {\n  x = var.|\n}\n');
    assert.equal(list.isIncomplete, false);
    assert.match(docOf(item(list, 'a')), /The A/);
    model.dispose();
  });
});

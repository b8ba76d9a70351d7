import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { classifyFileName, compareTfvarsLoadOrder, ModuleFolderModel } from '../../server/src/model';
import type { Range, TfvarsFileContribution } from '../../server/src/model';
import { fixture, testParser } from './helpers';

function textAt(file: string, range: Range): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  if (range.start.line === range.end.line) return lines[range.start.line].slice(range.start.character, range.end.character);
  return [lines[range.start.line].slice(range.start.character), ...lines.slice(range.start.line + 1, range.end.line), lines[range.end.line].slice(0, range.end.character)].join('\n');
}

describe('which files are tfvars, and in which order Terraform loads them', () => {
  test('classification, including the JSON forms and ignored editor files', () => {
    assert.deepEqual(classifyFileName('terraform.tfvars'), { kind: 'tfvars', format: 'hcl', autoLoaded: true });
    assert.deepEqual(classifyFileName('terraform.tfvars.json'), { kind: 'tfvars', format: 'json', autoLoaded: true });
    assert.deepEqual(classifyFileName('prod.auto.tfvars.json'), { kind: 'tfvars', format: 'json', autoLoaded: true });
    assert.deepEqual(classifyFileName('prod.tfvars'), { kind: 'tfvars', format: 'hcl', autoLoaded: false });
    assert.deepEqual(classifyFileName('main.tf'), { kind: 'terraform' });
    for (const ignored of ['.main.tf', '#main.tf#', 'main.tf~', 'README.md', 'main.tf.json.bak']) assert.equal(classifyFileName(ignored), undefined, ignored);
  });

  test('terraform.tfvars, then terraform.tfvars.json, then *.auto.* lexically', () => {
    const names = ['b.auto.tfvars', 'a.auto.tfvars.json', 'terraform.tfvars.json', 'terraform.tfvars', 'a.auto.tfvars'];
    assert.deepEqual(names.sort(compareTfvarsLoadOrder), ['terraform.tfvars', 'terraform.tfvars.json', 'a.auto.tfvars', 'a.auto.tfvars.json', 'b.auto.tfvars']);
  });
});

describe('JSON tfvars (json-tfvars fixture)', () => {
  let model: ModuleFolderModel;
  before(async () => {
    model = await ModuleFolderModel.load({ folder: fixture('json-tfvars'), parser: await testParser() });
  });

  test('values come from JSON.parse (escapes decoded), ranges from the syntax tree', () => {
    const file = fixture('json-tfvars', 'terraform.tfvars.json');
    const contribution = model.index.get(file) as TfvarsFileContribution;
    assert.equal(contribution.format, 'json');
    assert.equal(contribution.jsonError, undefined);
    const byKey = new Map(contribution.entries.map((entry) => [entry.key, entry]));
    assert.deepEqual([...byKey.keys()], ['region', 'ports', 'labels']);
    assert.deepEqual(byKey.get('labels')?.literal, { value: { team: 'café', tier: 'web' } });
    assert.deepEqual(byKey.get('ports')?.literal, { value: [80, 443] });
    const region = byKey.get('region');
    assert.ok(region);
    assert.equal(textAt(file, region.keyRange), '"region"');
    assert.equal(textAt(file, region.valueRange), '"eu-west-1"');
    assert.equal(textAt(file, region.range), '"region": "eu-west-1"');
    assert.equal(region.valueText, '"eu-west-1"');
  });

  test('the last auto-loaded file wins: a.auto.tfvars, then override.auto.tfvars.json', () => {
    const winner = model.index.effectiveTfvarsEntry('region');
    assert.equal(winner?.literal?.value, 'us-east-2');
    assert.ok(winner?.file.endsWith('override.auto.tfvars.json'));
    assert.deepEqual(model.index.autoLoadedTfvarsEntries().filter((entry) => entry.key === 'region').map((entry) => entry.literal?.value), ['eu-west-1', 'ap-south-1', 'us-east-2']);
  });

  test('a JSON document that is not an object is reported, not crashed on', async () => {
    const folder = fixture('json-tfvars');
    const other = await ModuleFolderModel.load({ folder, parser: await testParser() });
    await other.fileChanged(`${folder}/terraform.tfvars.json`, '["region"]');
    const contribution = other.index.get(`${folder}/terraform.tfvars.json`) as TfvarsFileContribution;
    assert.deepEqual(contribution.entries, []);
    assert.match(contribution.jsonError?.message ?? '', /must hold one JSON object/);
  });

  test('a truncated JSON file points at its end and never echoes its content', async () => {
    const folder = fixture('json-tfvars');
    const other = await ModuleFolderModel.load({ folder, parser: await testParser() });
    await other.fileChanged(`${folder}/terraform.tfvars.json`, '{\n  "db_password": "s3cr3t-value",\n');
    const contribution = other.index.get(`${folder}/terraform.tfvars.json`) as TfvarsFileContribution;
    assert.ok(contribution.jsonError);
    assert.ok(!contribution.jsonError.message.includes('s3cr3t'), contribution.jsonError.message);
    assert.deepEqual(contribution.jsonError.range.start, { line: 2, character: 0 });
    assert.deepEqual(contribution.entries.map((entry) => [entry.key, entry.literal?.value]), [['db_password', 's3cr3t-value']]);

    await other.fileChanged(`${folder}/terraform.tfvars.json`, '{\n  "region": "eu",\n  "labels": {"team": "a"},\n  "ports": [80,\n');
    const nested = other.index.get(`${folder}/terraform.tfvars.json`) as TfvarsFileContribution;
    assert.deepEqual(nested.entries.map((entry) => entry.key).slice(0, 2), ['region', 'labels'], 'a nested object is not taken for the top level');
  });
});

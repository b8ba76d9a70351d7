// The demo folder is a contract shared with the emulator's demo seed (workspace demo-app in acme-demo). These
// tests pin the parts of the contract that live in test/fixtures/demo-app.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { checkValueAgainstType, ModuleFolderModel, typeToString } from '../../server/src/model';
import { demoAppFolder, testParser } from './helpers';

describe('demo-app fixture', () => {
  let model: ModuleFolderModel;
  before(async () => {
    model = await ModuleFolderModel.load({ folder: demoAppFolder, parser: await testParser() });
  });

  test('is linked to acme-demo / demo-app through its cloud block', () => {
    const link = model.serviceLink();
    assert.equal(link.mechanism, 'cloud');
    assert.equal(link.organization?.value, 'acme-demo');
    assert.deepEqual(link.workspace?.kind === 'name' && link.workspace.name.value, 'demo-app');
    assert.deepEqual(link.problems, []);
  });

  test('declares the contract\'s variables with their types, defaults and sensitivity', () => {
    const summary = Object.fromEntries(
      model.index.variables().map((variable) => [
        variable.name,
        { type: variable.type ? typeToString(variable.type.parsed) : undefined, default: variable.default?.literal?.value, sensitive: variable.sensitive },
      ]),
    );
    assert.deepEqual(summary, {
      allowed_cidrs: { type: 'list(string)', default: undefined, sensitive: false },
      db_password: { type: 'string', default: undefined, sensitive: true },
      enable_monitoring: { type: 'bool', default: false, sensitive: false },
      environment: { type: 'string', default: undefined, sensitive: false },
      instance_count: { type: 'number', default: undefined, sensitive: false },
      region: { type: 'string', default: 'eu-west-1', sensitive: false },
      replica_count: { type: 'number', default: 1, sensitive: false },
      services: { type: 'map(object({ port = number, public = bool }))', default: {}, sensitive: false },
      tags: { type: 'map(string)', default: {}, sensitive: false },
    });
  });

  test('tfvars: region and allowed_cidrs set, replica_count = "three" does not fit, environment set nowhere', () => {
    assert.equal(model.index.effectiveTfvarsEntry('region')?.literal?.value, 'eu-central-1');
    assert.deepEqual(model.index.effectiveTfvarsEntry('allowed_cidrs')?.literal?.value, ['10.0.0.0/16', '192.168.10.0/24']);
    const replicas = model.index.effectiveTfvarsEntry('replica_count');
    const [declaration] = model.index.declarationsOf('replica_count');
    assert.ok(replicas?.literal && declaration.type);
    assert.equal(checkValueAgainstType(replicas.literal.value, declaration.type.parsed)?.message, 'number required, found string "three"');
    assert.equal(model.index.effectiveTfvarsEntry('environment'), undefined);
    assert.equal(model.index.effectiveTfvarsEntry('db_password'), undefined, 'the sensitive value is never in a tfvars file');
    for (const entry of model.index.autoLoadedTfvarsEntries()) {
      const [variable] = model.index.declarationsOf(entry.key);
      assert.ok(variable, `${entry.key} is declared`);
      if (entry.key !== 'replica_count' && variable.type && entry.literal) assert.equal(checkValueAgainstType(entry.literal.value, variable.type.parsed), undefined, entry.key);
    }
  });

  test('references var.owner_email, which is never declared, and every declared variable is used', () => {
    assert.deepEqual([...new Set(model.index.undeclaredReferences().map((reference) => reference.name))], ['owner_email']);
    for (const name of model.index.variableNames()) assert.ok(model.index.referencesTo(name).length > 0, `${name} is used`);
  });

  test('has resources to target, a .terraformignore, a README, and no syntax errors', () => {
    assert.deepEqual(model.index.addresses().map((address) => address.address), [
      'random_pet.app_name', 'terraform_data.app_instance', 'terraform_data.monitoring', 'terraform_data.database', 'null_resource.service_registration', 'local_file.inventory',
    ]);
    for (const contribution of model.index.all()) assert.deepEqual(contribution.syntaxProblems, [], contribution.file);
    assert.match(readFileSync(path.join(demoAppFolder, '.terraformignore'), 'utf8'), /^\.terraform\/$/m);
    assert.match(readFileSync(path.join(demoAppFolder, 'README.md'), 'utf8'), /acme-demo/);
    const providers = readFileSync(path.join(demoAppFolder, 'main.tf'), 'utf8').match(/source\s*=\s*"([^"]+)"/g);
    assert.deepEqual(providers, ['source  = "hashicorp/random"', 'source  = "hashicorp/null"', 'source  = "hashicorp/local"'], 'only providers that need no network');
  });
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { ModuleFolderModel } from '../../server/src/model';
import type { TerraformFileContribution } from '../../server/src/model';
import { fixture, testParser } from './helpers';
import { referenceNameRange, referenceRange } from '../../server/src/model/references';

describe('a real-world module folder (network-module)', () => {
  let model: ModuleFolderModel;
  before(async () => {
    model = await ModuleFolderModel.load({ folder: fixture('network-module'), parser: await testParser() });
  });

  test('every variable block with its type, default, description and flags', () => {
    assert.deepEqual(model.index.variableNames(), [
      'azs', 'cidr_block', 'extra_security_group_ids', 'flow_log_retention_days', 'legacy_zone_id', 'name', 'nat_gateway', 'subnets', 'tag_defaults', 'vpn_shared_secret',
    ]);
    const [azs] = model.index.declarationsOf('azs');
    assert.equal(azs.description, 'Availability zones to spread subnets over.\nAt least two for high availability.\n');
    assert.deepEqual(azs.type?.parsed, { kind: 'list', element: { kind: 'string' } });
    assert.deepEqual(azs.default?.literal, { value: ['eu-west-1a', 'eu-west-1b'] });

    const [retention] = model.index.declarationsOf('flow_log_retention_days');
    assert.equal(retention.nullable, false);
    assert.deepEqual(retention.default, { text: '-1', range: retention.default?.range, literal: { value: -1 } });

    const [legacy] = model.index.declarationsOf('legacy_zone_id');
    assert.deepEqual(legacy.default?.literal, { value: null }, 'a null default is a literal null, not "no default"');
    assert.deepEqual(legacy.type?.parsed, { kind: 'string' });

    const [secret] = model.index.declarationsOf('vpn_shared_secret');
    assert.equal(secret.sensitive, true);
    assert.equal(secret.default, undefined);
    assert.equal(secret.nullable, true);

    const [subnets] = model.index.declarationsOf('subnets');
    assert.equal(subnets.type?.parsed.kind, 'list');
    assert.match(subnets.type?.text ?? '', /^list\(object\(\{/);
  });

  test('ranges of a variable block and of its name label', () => {
    const [name] = model.index.declarationsOf('name');
    assert.ok(name.file.endsWith('variables.tf'));
    assert.deepEqual(name.nameRange, { start: { line: 0, character: 9 }, end: { line: 0, character: 15 } });
    assert.deepEqual(name.range.start, { line: 0, character: 0 });
    assert.deepEqual(name.range.end, { line: 8, character: 1 });
  });

  test('var references everywhere: attributes, templates, for expressions, validation and check blocks', () => {
    const references = model.index.referencesTo('name');
    const files = new Set(references.map((reference) => reference.file.split('/').pop()));
    assert.deepEqual([...files].sort(), ['locals.tf', 'main.tf', 'variables.tf']);
    assert.equal(references.length, 6);
    assert.equal(model.index.referencesTo('subnets').length, 2);
    assert.equal(model.index.undeclaredReferences().length, 0);
  });

  test('reference ranges are UTF-16 columns after emoji, accents and CJK text', () => {
    const localsFile = fixture('network-module', 'locals.tf');
    const lines = readFileSync(localsFile, 'utf8').split('\n');
    const reference = model.index.referencesTo('name').find((candidate) => candidate.file === localsFile);
    assert.ok(reference);
    const line = lines[referenceRange(reference).start.line];
    assert.equal(line.slice(referenceRange(reference).start.character, referenceRange(reference).end.character), 'var.name');
    assert.equal(line.slice(referenceNameRange(reference).start.character, referenceNameRange(reference).end.character), 'name');
    assert.ok(referenceRange(reference).start.character < Buffer.byteLength(line.slice(0, referenceRange(reference).start.character)), 'the line has multi-byte text before the reference');
  });

  test('resource, data and module addresses with their label ranges', () => {
    const addresses = model.index.addresses().map((address) => address.address);
    assert.deepEqual(addresses, [
      'data.aws_region.current', 'data.aws_availability_zones.available', 'aws_vpc.this', 'aws_subnet.this', 'aws_security_group.default', 'module.vpn',
    ]);
    const vpc = model.index.addresses().find((address) => address.address === 'aws_vpc.this');
    assert.deepEqual(vpc?.labelsRange, { start: { line: 6, character: 9 }, end: { line: 6, character: 25 } });
    const vpn = model.index.addresses().find((address) => address.kind === 'module');
    assert.deepEqual({ name: vpn?.name, type: vpn?.type }, { name: 'vpn', type: undefined });
  });

  test('auto-loaded tfvars in Terraform order: the later file wins; -var-file files are not auto-loaded', () => {
    assert.equal(model.index.effectiveTfvarsEntry('cidr_block')?.literal?.value, '10.30.0.0/16');
    assert.ok(model.index.effectiveTfvarsEntry('cidr_block')?.file.endsWith('network.auto.tfvars'));
    assert.equal(model.index.effectiveTfvarsEntry('name')?.literal?.value, 'core', 'prod.tfvars is only used with -var-file');
    const prod = model.index.get(fixture('network-module', 'prod.tfvars'));
    assert.ok(prod?.kind === 'tfvars' && !prod.autoLoaded && prod.entries[0].key === 'name');
  });

  test('a module without a cloud block or backend is not linked', () => {
    assert.deepEqual(model.serviceLink(), { mechanism: 'none', problems: [] });
    const versions = model.index.get(fixture('network-module', 'versions.tf')) as TerraformFileContribution;
    assert.deepEqual(versions.cloudBlocks, []);
  });
});

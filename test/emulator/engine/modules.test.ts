// Local modules in the configuration engine: followed when their source is a relative path in the upload (also
// nested, with count and for_each), their variables bound from the module block over their defaults, their
// resources addressed under module.<name>[key], their outputs readable by the caller; registry modules skipped.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { readConfiguration } from '../../../emulator/src/engine/configuration';
import { localModuleDir } from '../../../emulator/src/engine/modules';
import type { TerraformParser } from '../../../server/src/model';
import { testParser } from '../../model/helpers';

const upload = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([k, v]) => [k, Buffer.from(v)]));

const net = `
variable "cidr" { default = "192.168.0.0/16" }
variable "name" { default = "net" }
variable "subnets" {
  type    = number
  default = 1
}
resource "aws_vpc" "this" {
  cidr_block = var.cidr
  tags       = { Name = var.name }
}
resource "aws_subnet" "s" {
  count  = var.subnets
  vpc_id = aws_vpc.this.id
  cidr   = "\${var.cidr}-\${count.index}"
}
module "inner" {
  source = "../inner"
  label  = "\${var.name}-inner"
}
output "name" { value = var.name }
output "id" { value = aws_vpc.this.id }
`;
const inner = 'variable "label" {}\nresource "r" "deep" { label = var.label }\noutput "label" { value = var.label }\n';

describe('configuration engine: local modules', () => {
  let parser: TerraformParser;
  before(async () => {
    parser = await testParser();
  });

  test('resources get module addresses (count, for_each, nested); variables bind over defaults; registry modules are skipped', () => {
    const declared = readConfiguration(
      parser,
      upload({
        'main.tf': `
variable "cidr" { default = "10.0.0.0/16" }
module "net" {
  source  = "./modules/net"
  cidr    = var.cidr
  subnets = "2"
}
module "counted" {
  source = "./modules/net/"
  count  = 2
  name   = "c\${count.index}"
}
module "each" {
  source   = "./modules/net"
  for_each = { x = "ex" }
  name     = each.value
}
module "registry" { source = "terraform-aws-modules/vpc/aws" }
module "missing" { source = "./modules/none" }
`,
        'modules/net/main.tf': net,
        'modules/inner/main.tf': inner,
      }),
      new Map(),
    )!;
    const one = (prefix: string) => [`${prefix}.aws_vpc.this`, `${prefix}.aws_subnet.s[0]`, `${prefix}.module.inner.r.deep`];
    assert.deepEqual(declared.instances.map((i) => i.address), [
      'module.net.aws_vpc.this', 'module.net.aws_subnet.s[0]', 'module.net.aws_subnet.s[1]', 'module.net.module.inner.r.deep',
      ...one('module.counted[0]'), ...one('module.counted[1]'), ...one('module.each["x"]'),
    ]);
    const at = (address: string) => declared.instances.find((i) => i.address === address)!;
    assert.deepEqual(at('module.net.aws_vpc.this'), { ...at('module.net.aws_vpc.this'), type: 'aws_vpc', name: 'this', module: 'module.net', values: { cidr_block: '10.0.0.0/16', tags: { Name: 'net' } }, unknown: [] });
    assert.deepEqual(at('module.net.aws_subnet.s[1]').values, { cidr: '10.0.0.0/16-1' });
    assert.deepEqual(at('module.net.aws_subnet.s[1]').unknown, ['vpc_id']);
    assert.equal(at('module.net.aws_subnet.s[1]').index, 1);
    assert.deepEqual(at('module.counted[1].aws_vpc.this').values, { cidr_block: '192.168.0.0/16', tags: { Name: 'c1' } }, 'the default where the block sets nothing');
    assert.deepEqual(at('module.each["x"].module.inner.r.deep'), { ...at('module.each["x"].module.inner.r.deep'), name: 'deep', module: 'module.each["x"].module.inner', values: { label: 'ex-inner' } });
    assert.equal(at('module.net.module.inner.r.deep').index, undefined);
  });

  test('module outputs resolve where known (also by index and key), else unknown; a configuration with only module resources is one', () => {
    const declared = readConfiguration(
      parser,
      upload({
        'main.tf': `
module "net" { source = "./modules/net" }
module "many" {
  source   = "./modules/net"
  for_each = toset(["a", "b"])
  name     = each.key
}
module "counted" {
  source = "./modules/net"
  count  = 1
}
resource "r" "uses" {
  vpc_name = module.net.name
  vpc_id   = module.net.id
  names    = [for k, m in module.many : "\${k}=\${m.name}"]
}
output "name" { value = module.many["b"].name }
output "first" { value = module.counted[0].name }
output "inner" { value = module.net.id }
`,
        'modules/net/main.tf': net,
        'modules/inner/main.tf': inner,
      }),
      new Map(),
    )!;
    const uses = declared.instances.find((i) => i.address === 'r.uses')!;
    assert.deepEqual(uses.values, { vpc_name: 'net', names: ['a=a', 'b=b'] });
    assert.deepEqual(uses.unknown, ['vpc_id']);
    assert.deepEqual(declared.outputs, [
      { name: 'name', sensitive: false, value: 'b', unknown: false },
      { name: 'first', sensitive: false, value: 'net', unknown: false },
      { name: 'inner', sensitive: false, unknown: true },
    ]);
    const onlyModules = readConfiguration(parser, upload({ 'main.tf': 'module "i" {\n  source = "./inner"\n  label = "x"\n}\n', 'inner/main.tf': inner }), new Map())!;
    assert.deepEqual(onlyModules.instances.map((i) => i.address), ['module.i.r.deep']);
    assert.deepEqual(onlyModules.outputs, [], 'module outputs are not root outputs');
  });

  test('the values a plan compares follow module inputs, locals and each.value, per instance', () => {
    const valuesOf = (cidr: string, size: number) => {
      const declared = readConfiguration(
        parser,
        upload({
          'main.tf': `
locals { size = ${size} }
module "net" {
  source = "./modules/net"
  cidr   = "${cidr}"
}
resource "r" "sized" { size = local.size }
resource "r" "each" {
  for_each = { a = "${cidr}", b = "fixed" }
  value    = each.value
}
`,
          'modules/net/main.tf': net,
          'modules/inner/main.tf': inner,
        }),
        new Map(),
      )!;
      return new Map(declared.instances.map((i) => [i.address, JSON.stringify([i.values, i.unknownFingerprints])]));
    };
    const base = valuesOf('10.0.0.0/16', 1);
    const otherCidr = valuesOf('10.1.0.0/16', 1);
    const otherSize = valuesOf('10.0.0.0/16', 2);
    assert.notEqual(base.get('module.net.aws_vpc.this'), otherCidr.get('module.net.aws_vpc.this'));
    assert.equal(base.get('module.net.module.inner.r.deep'), otherCidr.get('module.net.module.inner.r.deep'), 'the inner module does not read the cidr');
    assert.notEqual(base.get('r.each["a"]'), otherCidr.get('r.each["a"]'));
    assert.equal(base.get('r.each["b"]'), otherCidr.get('r.each["b"]'));
    assert.equal(base.get('r.sized'), otherCidr.get('r.sized'));
    assert.notEqual(base.get('r.sized'), otherSize.get('r.sized'));
  });

  test('local sources resolve inside the upload only', () => {
    assert.equal(localModuleDir('', './modules/net'), 'modules/net');
    assert.equal(localModuleDir('modules/app', '../net/'), 'modules/net');
    assert.equal(localModuleDir('', '../outside'), undefined);
    assert.equal(localModuleDir('', 'hashicorp/consul/aws'), undefined);
    assert.equal(localModuleDir('', 'git::https://example.com/net.git'), undefined);
  });
});

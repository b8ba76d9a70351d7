// The plan → code mapping, pure: root blocks, nested local modules, count and for_each instances, moved blocks,
// data sources, remote modules and destroyed resources without a block (unmatched).
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import type { MovedBlock, TargetAddress } from '../../server/src/model';
import { mapPlanToCode } from '../../server/src/plans/mapping';
import type { ModuleCode } from '../../server/src/plans/mapping';
import { parseAddress } from '../../server/src/plans/addresses';
import type { PlanInstanceChange } from '../../server/src/protocol';

const root = path.resolve('/infra');
const net = path.join(root, 'modules', 'net');

let line = 0;
function block(folder: string, address: string, extra: Partial<TargetAddress> = {}): TargetAddress {
  const at = line++;
  const kind = address.startsWith('data.') ? 'data' : address.startsWith('module.') ? 'module' : 'resource';
  const parts = address.split('.');
  return {
    address,
    kind,
    name: parts[parts.length - 1]!,
    ...(kind === 'module' ? {} : { type: kind === 'data' ? parts[1] : parts[0] }),
    file: path.join(folder, 'main.tf'),
    range: { start: { line: at, character: 0 }, end: { line: at + 3, character: 1 } },
    labelsRange: { start: { line: at, character: 9 }, end: { line: at, character: 30 } },
    ...extra,
  } as TargetAddress;
}
const change = (address: string, action: PlanInstanceChange['action'] = 'create'): PlanInstanceChange => ({ address, action, attributes: [] });
const moved = (from: string, to: string): MovedBlock => ({ from, to, file: path.join(root, 'main.tf'), range: { start: { line: 90, character: 0 }, end: { line: 93, character: 1 } } });

const codes = new Map<string, ModuleCode>([
  [
    root,
    {
      folder: root,
      addresses: [
        block(root, 'aws_instance.web'),
        block(root, 'aws_instance.workers'),
        block(root, 'null_resource.services'),
        block(root, 'data.aws_ami.ubuntu'),
        block(root, 'aws_s3_bucket.logs'),
        block(root, 'module.net', { source: './modules/net' }),
        block(root, 'module.dns', { source: 'terraform-aws-modules/route53/aws' }),
      ],
      moved: [moved('aws_s3_bucket.old_logs', 'aws_s3_bucket.logs'), moved('module.network', 'module.net')],
    },
  ],
  [net, { folder: net, addresses: [block(net, 'aws_vpc.main'), block(net, 'aws_subnet.private')], moved: [] }],
]);
const lookup = (folder: string) => codes.get(folder);

describe('mapping a plan onto the code', () => {
  const mapping = mapPlanToCode(codes.get(root)!, lookup, [
    change('aws_instance.web', 'update'),
    change('aws_instance.workers[0]', 'no-op'),
    change('aws_instance.workers[1]', 'create'),
    change('aws_instance.workers[2]', 'create'),
    change('null_resource.services["web"]', 'replace'),
    change('null_resource.services["a.b]c"]', 'replace'),
    change('data.aws_ami.ubuntu', 'read'),
    change('aws_s3_bucket.old_logs', 'update'),
    change('module.net.aws_vpc.main', 'create'),
    change('module.network.aws_subnet.private[0]', 'delete'),
    change('module.dns.aws_route53_record.www', 'create'),
    change('aws_db_instance.legacy', 'delete'),
  ]);
  const verdict = (address: string) => mapping.blocks.find((candidate) => candidate.address === address);

  test('a root block gets its own change, on its file and first line', () => {
    const web = verdict('aws_instance.web')!;
    assert.equal(web.action, 'update');
    assert.deepEqual(web.instances.map((i) => i.address), ['aws_instance.web']);
    assert.equal(web.uri, 'file:///infra/main.tf');
    assert.equal(web.range.start.line, web.range.end.line);
  });

  test('count instances group on their block, unchanged ones counted', () => {
    const workers = verdict('aws_instance.workers')!;
    assert.equal(workers.instances.length, 3);
    assert.equal(workers.action, 'create');
    assert.equal(workers.label, '2 of 3 instances change');
  });

  test('for_each string keys (even with dots and brackets in them) group on their block', () => {
    const services = verdict('null_resource.services')!;
    assert.deepEqual(services.instances.map((i) => i.address), ['null_resource.services["web"]', 'null_resource.services["a.b]c"]']);
    assert.equal(services.label, '-/+ replace (2 instances)');
  });

  test('a data source read at apply says <= read', () => {
    assert.equal(verdict('data.aws_ami.ubuntu')!.label, '<= read');
  });

  test('moved blocks are followed, for resources and for module calls', () => {
    assert.deepEqual(verdict('aws_s3_bucket.logs')!.instances.map((i) => i.address), ['aws_s3_bucket.old_logs']);
    assert.equal(verdict('module.net.aws_subnet.private')!.action, 'delete');
  });

  test('a local module is followed into its folder, with the module path in the address', () => {
    const vpc = verdict('module.net.aws_vpc.main')!;
    assert.equal(vpc.uri, 'file:///infra/modules/net/main.tf');
    assert.equal(vpc.label, '+ create');
    assert.deepEqual(mapping.folders, [root, net]);
  });

  test('a remote module and a destroyed resource without a block are unmatched', () => {
    assert.deepEqual(mapping.unmatched.map((c) => c.address), ['module.dns.aws_route53_record.www', 'aws_db_instance.legacy']);
  });

  test('every other block says no changes', () => {
    const fresh = mapPlanToCode(codes.get(root)!, lookup, []);
    assert.deepEqual(new Set(fresh.blocks.map((b) => b.label)), new Set(['no changes']));
    assert.equal(fresh.blocks.length, 7); // five root blocks and the two of the local module; no module call itself
  });

  test('drift marks the block', () => {
    const drifted = mapPlanToCode(codes.get(root)!, lookup, [], [change('aws_instance.web', 'update')]);
    const web = drifted.blocks.find((b) => b.address === 'aws_instance.web')!;
    assert.equal(web.drifted, true);
    assert.equal(web.label, 'drifted outside Terraform');
  });
});

describe('addresses', () => {
  test('module paths, data sources and keys', () => {
    assert.deepEqual(parseAddress('module.a["x"].module.b.data.aws_ami.u[0]'), { modules: [{ name: 'a', key: 'x' }, { name: 'b' }], mode: 'data', type: 'aws_ami', name: 'u', key: 0 });
    assert.equal(parseAddress('not an address'), undefined);
    assert.equal(parseAddress('aws_instance'), undefined);
  });
});

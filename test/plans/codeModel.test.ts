// What the mapping reads from the code model, extracted by the real parser: module `source`, `moved` blocks, and
// resource arguments with their ranges (for inlay hints).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractTerraformFile } from '../../server/src/model';
import { testParser } from '../model/helpers';

test('module sources, moved blocks and resource arguments come out of a .tf file', async () => {
  const parser = await testParser();
  const text = [
    'module "net" {',
    '  source = "./modules/net"',
    '}',
    'module "dns" {',
    '  source  = "terraform-aws-modules/route53/aws"',
    '}',
    'moved {',
    '  from = aws_s3_bucket.old_logs',
    '  to   = aws_s3_bucket.logs',
    '}',
    'resource "aws_s3_bucket" "logs" {',
    '  bucket = "logs"',
    '  tags   = { a = 1 }',
    '}',
    '',
  ].join('\n');
  const tree = parser.parse(text);
  try {
    const contribution = extractTerraformFile(tree, '/m/main.tf');
    assert.deepEqual(contribution.addresses.filter((a) => a.kind === 'module').map((a) => [a.address, a.source]), [
      ['module.net', './modules/net'],
      ['module.dns', 'terraform-aws-modules/route53/aws'],
    ]);
    assert.deepEqual(contribution.moved?.map((m) => [m.from, m.to]), [['aws_s3_bucket.old_logs', 'aws_s3_bucket.logs']]);
    const bucket = contribution.addresses.find((a) => a.address === 'aws_s3_bucket.logs')!;
    assert.deepEqual(bucket.attributes?.map((a) => [a.name, a.endLine, a.endCharacter]), [
      ['bucket', 11, 17],
      ['tags', 12, 20],
    ]);
  } finally {
    tree.delete();
  }
});

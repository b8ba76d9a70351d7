// An edit that adds or removes lines moves the facts of every block after it in place (pieceFacts.shiftRowsInPlace).
// That is only right if no object holding a position is reachable twice from a file's facts: a shared range would
// be moved twice. This walks what the extractor produces for every fixture, a generated file with every kind of
// block, and a file with two identical blocks, and fails on the first object met twice.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { IncrementalTerraformExtractor } from '../../server/src/model/incrementalTerraformFile';
import { emptyContribution, shiftedFacts, spliceBlock } from '../../server/src/model/pieceFacts';
import type { Facts } from '../../server/src/model/pieceFacts';
import { demoAppFolder, fixturesRoot, testParser } from './helpers';

/** Keys whose values are shared on purpose (frozen, memoized readings) and hold no positions: pieceFacts' opaque keys. */
const opaqueKeys = new Set(['literal', 'parsed', 'value']);

function tfFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) return tfFiles(full);
    return name.endsWith('.tf') ? [full] : [];
  });
}

/** The path to the first object reached twice, or undefined. */
function sharedObject(value: unknown, seen: Map<object, string>, at: string): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const earlier = seen.get(value);
  if (earlier !== undefined) return `${at} is also ${earlier}`;
  seen.set(value, at);
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  for (const [key, item] of entries) {
    if (opaqueKeys.has(key)) continue;
    const found = sharedObject(item, seen, `${at}.${key}`);
    if (found) return found;
  }
  return undefined;
}

const generated = [
  'terraform {\n  cloud {\n    organization = "acme"\n    workspaces {\n      name = "app"\n    }\n  }\n}\n',
  'variable "region" {\n  type    = string\n  default = "eu-west-1"\n  description = "where"\n}\n',
  'variable "sizes" {\n  type    = map(number)\n  default = { small = 1, large = 3 }\n}\n',
  'resource "aws_instance" "web" {\n  ami   = var.region\n  count = var.sizes["small"]\n  tags  = { Name = "${var.region}-web" }\n}\n',
  'data "aws_ami" "ubuntu" {\n  owners = [var.region]\n}\n',
  'module "net" {\n  source = "./net"\n  cidr   = var.region\n}\n',
  'moved {\n  from = aws_instance.old\n  to   = aws_instance.web\n}\n',
  'output "o" {\n  value = var.\n}\n',
  'locals {\n  same = var.region\n}\n',
  'locals {\n  same = var.region\n}\n',
].join('\n');

test('no object that holds a position is reachable twice from a file’s facts', async () => {
  const parser = await testParser();
  const inputs = [...tfFiles(fixturesRoot), ...tfFiles(demoAppFolder)].map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  inputs.push({ file: '/work/generated/main.tf', text: generated });
  assert.ok(inputs.length > 10, `only ${inputs.length} inputs`);
  for (const { file, text } of inputs) {
    const extractor = new IncrementalTerraformExtractor(file);
    const tree = parser.parse(text);
    try {
      const contribution = extractor.extract(tree, text, (start, end) => parser.parseRegion(text, start, end));
      const { syntaxProblems, ...facts } = contribution;
      assert.equal(sharedObject(facts, new Map(), path.basename(file)), undefined, file);
      assert.equal(sharedObject(syntaxProblems, new Map(), `${path.basename(file)} problems`), undefined, file);
    } finally {
      tree.delete();
    }
  }
});

test('moving facts by three lines, in place or as a copy, gives what the same text three lines lower gives', async () => {
  const parser = await testParser();
  const inputs = [...tfFiles(fixturesRoot), ...tfFiles(demoAppFolder)].map((file) => readFileSync(file, 'utf8'));
  inputs.push(generated);
  // The oracle is the extractor itself on the text with three blank lines above it: every position three lines down.
  const factsOf = (text: string): Facts => {
    const tree = parser.parse(text);
    try {
      const { kind: _kind, file: _file, syntaxProblems: _problems, ...lists } = new IncrementalTerraformExtractor('/work/x/main.tf').extract(tree, text);
      return { ...lists, moved: lists.moved ?? [], blockCount: 1 } as Facts;
    } finally {
      tree.delete();
    }
  };
  for (const text of inputs) {
    const lower = factsOf(`\n\n\n${text}`);
    const copied = shiftedFacts(factsOf(text), 3);
    assert.deepEqual(copied, lower, 'the copy');
    // In place as an Enter moves them: an empty piece before them gains three lines, and spliceBlock moves the rest.
    const facts = factsOf(text);
    const empty: Facts = { ...emptyContribution('/work/x/main.tf', []), moved: [], blockCount: 0 };
    const lists = { ...emptyContribution('/work/x/main.tf', []), ...facts };
    spliceBlock('/work/x/main.tf', lists, [{ facts: empty }, { facts }], 0, empty, empty, 3);
    assert.deepEqual(facts, lower, 'in place');
  }
});

test('the walk does find a shared range (the check can fail)', () => {
  const range = { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } };
  assert.match(sharedObject({ references: [{ range }, { range }] }, new Map(), 'facts') ?? '', /facts\.references\.1\.range is also facts\.references\.0\.range/);
  assert.equal(sharedObject({ parsed: [range, range] }, new Map(), 'facts'), undefined, 'opaque values may be shared');
});

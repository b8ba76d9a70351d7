// When the server starts a fresh parser runtime (documents/parserRecycling.ts): only once the open documents have
// had no edit for a while, only when the parser holds far more than the kept trees need, and never losing an open
// document's tree. The policy runs on a manual clock with a parser that reports the memory a test sets; the last
// test runs it with the real parser and real models.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { minimumReclaimBytes, ParserRecycling, reclaimableBytes, recycleIdleMs, treeBytesPerCharacter } from '../../server/src/documents/parserRecycling';
import type { TreeHolder } from '../../server/src/documents/parserRecycling';
import { ModuleFolderModel, resolveWasmLocation, TerraformParser } from '../../server/src/model';
import { MemoryFileSystem } from '../model/helpers';
import { ManualClock } from '../helpers/manualClock';

const MB = 1024 * 1024;

test('reclaimable: only a heap at least twice what the kept trees need, and at least 32 MB over it', () => {
  const fresh = 32 * MB;
  assert.equal(reclaimableBytes(fresh, fresh, 0), 0, 'a fresh runtime has nothing to give back');
  assert.equal(reclaimableBytes(160 * MB, fresh, 0), 128 * MB, 'a closed 1 MB file’s trees: all of it');
  const oneMbOpen = fresh + 1_000_000 * treeBytesPerCharacter;
  assert.equal(reclaimableBytes(160 * MB, fresh, 1_000_000), 0, 'the 1 MB file still open: its trees need that memory');
  assert.equal(reclaimableBytes(2 * oneMbOpen, fresh, 1_000_000), oneMbOpen, 'twice what it needs: the excess');
  assert.equal(reclaimableBytes(10 * MB + minimumReclaimBytes - 1, 10 * MB, 0), 0, 'less than 32 MB to win is not worth a re-parse');
  assert.equal(reclaimableBytes(10 * MB + minimumReclaimBytes, 10 * MB, 0), minimumReclaimBytes);
});

/** A parser whose memory the test sets, counting recycles. */
function fakeParser(heapBytes: number) {
  const parser = {
    heap: heapBytes,
    freshHeapBytes: 32 * MB,
    recycles: 0,
    heapBytes: () => parser.heap,
    async recycle(reparse: () => void | Promise<void>) {
      parser.recycles++;
      parser.heap = parser.freshHeapBytes;
      await reparse();
    },
  };
  return parser;
}

function holder(characters: number): TreeHolder & { reparsed: number } {
  const held = { reparsed: 0, heldTreeText: () => characters, reparseTrees: () => void held.reparsed++ };
  return held;
}

function recyclingWith(parser: ReturnType<typeof fakeParser>, holders: TreeHolder[], clock: ManualClock, logs: string[] = []) {
  let released = 0;
  const recycling = new ParserRecycling({
    parser: Promise.resolve(parser as unknown as TerraformParser),
    holders: () => holders,
    log: (message) => logs.push(message),
    clock,
    released: () => released++,
  });
  return { recycling, released: () => released };
}

test('after a close the check waits until the documents have had no edit for a second, then recycles once', async () => {
  const clock = new ManualClock();
  const parser = fakeParser(200 * MB);
  const small = holder(10_000);
  const logs: string[] = [];
  const { recycling, released } = recyclingWith(parser, [small], clock, logs);
  recycling.checkSoon();
  recycling.checkSoon(); // several closes: one check
  await clock.advance(recycleIdleMs - 100);
  recycling.noteEdit(); // typing goes on in another document
  await clock.advance(200);
  assert.equal(parser.recycles, 0, 'an edit 100 ms ago: not now');
  await clock.advance(recycleIdleMs);
  assert.equal(parser.recycles, 1);
  assert.equal(small.reparsed, 1, 'the open document’s tree is parsed again in the new runtime');
  assert.equal(released(), 1, 'the old runtime’s memory is collected');
  assert.match(logs.join('\n'), /fresh runtime, giving back about \d+ MB/);
  assert.equal(clock.pendingTimers(), 0, 'nothing left scheduled');
});

test('no recycle while the trees kept need the memory, or when nothing was let go', async () => {
  const clock = new ManualClock();
  const parser = fakeParser(160 * MB);
  const { recycling } = recyclingWith(parser, [holder(1_000_000)], clock);
  recycling.checkSoon();
  await clock.advance(5 * recycleIdleMs);
  assert.equal(parser.recycles, 0, 'a 1 MB document is still open');

  const quiet = fakeParser(33 * MB);
  const other = recyclingWith(quiet, [], clock);
  other.recycling.checkSoon();
  await clock.advance(5 * recycleIdleMs);
  assert.equal(quiet.recycles, 0, 'a heap near its fresh size');
});

test('a check while a recycle runs does not start or report a second one', async () => {
  const clock = new ManualClock();
  const parser = fakeParser(200 * MB);
  // Like TerraformParser.recycle: overlapping calls share the one in flight, which waits here for its runtime.
  let finish!: () => void;
  const loaded = new Promise<void>((resolve) => (finish = resolve));
  const slow = parser.recycle;
  let inFlight: Promise<void> | undefined;
  parser.recycle = (reparse: () => void) =>
    (inFlight ??= (async () => {
      await loaded;
      await slow(reparse);
    })());
  const logs: string[] = [];
  const { recycling, released } = recyclingWith(parser, [holder(0)], clock, logs);
  recycling.checkSoon();
  await clock.advance(recycleIdleMs); // the first recycle starts and waits for its runtime
  recycling.checkSoon(); // another close meanwhile
  await clock.advance(recycleIdleMs);
  finish();
  await new Promise((resolve) => setImmediate(resolve));
  await clock.advance(recycleIdleMs);
  assert.equal(parser.recycles, 1);
  assert.equal(released(), 1);
  assert.equal(logs.filter((line) => /fresh runtime/.test(line)).length, 1, logs.join('\n'));
});

test('a runtime that cannot be started is logged and the old one stays in use', async () => {
  const clock = new ManualClock();
  const parser = fakeParser(200 * MB);
  parser.recycle = async () => {
    throw new Error('cannot read web-tree-sitter.wasm');
  };
  const logs: string[] = [];
  const kept = holder(0);
  const { recycling, released } = recyclingWith(parser, [kept], clock, logs);
  recycling.checkSoon();
  await clock.advance(recycleIdleMs);
  await new Promise((resolve) => setImmediate(resolve));
  assert.match(logs.join('\n'), /Could not start a fresh parser runtime.*cannot read web-tree-sitter\.wasm/);
  assert.equal(kept.reparsed, 0);
  assert.equal(released(), 0);
});

test('with the real parser: a closed 1 MB document’s memory is given back, and the other open document keeps working', async () => {
  const parser = await TerraformParser.load(resolveWasmLocation());
  const folder = path.resolve('/work/recycling-server');
  const big = path.join(folder, 'big.tf');
  const main = path.join(folder, 'main.tf');
  // About 1 MB shaped like the bench's file (resources with nested objects, templates and lists): a dense tree.
  const bigText = Array.from(
    { length: 6_500 },
    (_, index) => `resource "terraform_data" "r_${index}" {\n  input = {\n    name  = var.region\n    size  = var.size\n    label = "\${var.region}-${index}"\n  }\n\n  triggers_replace = [var.size]\n}\n\n`,
  ).join('');
  const model = await ModuleFolderModel.load({
    folder,
    parser,
    fileSystem: new MemoryFileSystem({ [big]: 'variable "region" {}\n', [main]: 'variable "size" {}\n' }),
  });
  const clock = new ManualClock();
  const recycling = new ParserRecycling({ parser: Promise.resolve(parser), holders: () => [model], log: () => undefined, clock, released: () => undefined });
  const recycled = new Promise<number>((resolve) => recycling.onRecycled(resolve));
  try {
    model.openDocument(main, 'variable "size" {}\noutput "o" { value = var.size }\n');
    model.openDocument(big, bigText);
    const grown = parser.heapBytes();
    assert.ok(grown > parser.freshHeapBytes + minimumReclaimBytes, `the big tree grew the heap (${grown})`);
    await model.closeDocument(big);
    recycling.checkSoon();
    await clock.advance(recycleIdleMs);
    assert.ok((await recycled) > minimumReclaimBytes);
    assert.equal(parser.generation, 1);
    assert.ok(parser.heapBytes() < grown);
    // The document left open was moved to the new runtime and edits as before.
    assert.equal(model.changeDocument(main, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: 'output "p" { value = var.region }\n' }]), true);
    const contribution = model.index.get(main);
    assert.deepEqual(contribution?.kind === 'terraform' ? contribution.references.map((reference) => reference.name) : [], ['region', 'size']);
  } finally {
    recycling.dispose();
    model.dispose();
  }
});

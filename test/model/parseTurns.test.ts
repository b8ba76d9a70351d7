// Closed files are parsed one per turn of the event loop, and the turns of a folder an editor waits for come before
// the background indexer's.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ModuleFolderModel } from '../../server/src/model';
import type { TerraformParser } from '../../server/src/model';
import { nextParseTurn } from '../../server/src/model/parseTurns';
import { slicedReadLength } from '../../server/src/model/closedFiles';
import { MemoryFileSystem, testParser } from './helpers';

test('urgent turns are given before background ones, each on a turn of the event loop of its own', async () => {
  const order: string[] = [];
  const turns = [
    ...['b1', 'b2', 'b3'].map((name) => nextParseTurn('background').then(() => order.push(name))),
    ...['u1', 'u2'].map((name) => nextParseTurn('urgent').then(() => order.push(name))),
  ];
  // Something the event loop runs between two turns (a request arriving): it gets in after the first one.
  const between = new Promise<void>((resolve) => setImmediate(() => setImmediate(() => (order.push('between'), resolve()))));
  await Promise.all([...turns, between]);
  assert.deepEqual(order.filter((name) => name !== 'between'), ['u1', 'u2', 'b1', 'b2', 'b3']);
  assert.ok(order.indexOf('between') > 0 && order.indexOf('between') < order.length - 1, `the event loop ran between turns: ${order.join(', ')}`);
});

test('a folder opened in the editor is read before the rest of the folder the background indexer was reading', async () => {
  const parser = await testParser();
  const parsed: string[] = [];
  const recording = Object.create(parser) as TerraformParser;
  recording.parse = (text, oldTree) => {
    parsed.push(/^# (\S+)/.exec(text)?.[1] ?? '?');
    return parser.parse(text, oldTree);
  };
  const files: Record<string, string> = {};
  for (let index = 0; index < 40; index++) files[path.resolve(`/turns/background/b${index}.tf`)] = `# background/b${index}\nvariable "b${index}" {}\n`;
  for (let index = 0; index < 8; index++) files[path.resolve(`/turns/opened/o${index}.tf`)] = `# opened/o${index}\nvariable "o${index}" {}\n`;
  const fileSystem = new MemoryFileSystem(files);
  const background = ModuleFolderModel.load({ folder: '/turns/background', parser: recording, fileSystem, yieldBetweenFiles: true, background: true });
  // The editor opens a file of the other folder once the indexer has parsed a few of its files.
  while (parsed.length < 3) await new Promise((resolve) => setImmediate(resolve));
  const opened = ModuleFolderModel.load({ folder: '/turns/opened', parser: recording, fileSystem, yieldBetweenFiles: true });
  const models = await Promise.all([background, opened]);
  try {
    const firstOpened = parsed.findIndex((name) => name.startsWith('opened/'));
    const lastOpened = parsed.findLastIndex((name) => name.startsWith('opened/'));
    assert.ok(firstOpened > 0, `the background folder started first: ${parsed.join(' ')}`);
    assert.equal(lastOpened - firstOpened, 7, `the opened folder's 8 files were parsed back to back: ${parsed.join(' ')}`);
    assert.ok(parsed.slice(lastOpened + 1).length > 20, 'most of the background folder came after');
  } finally {
    for (const model of models) model.dispose();
  }
});

test('a large closed file read in slices holds the parse turns until it is read: one such parse at a time, and the files of a folder an editor waits for next', async () => {
  const parser = await testParser();
  let inFlight = 0;
  let mostAtOnce = 0;
  const order: string[] = [];
  const recording = Object.create(parser) as TerraformParser;
  recording.parseInSlices = async (text, oldTree, control) => {
    inFlight++;
    mostAtOnce = Math.max(mostAtOnce, inFlight);
    order.push(/^# (\S+)/.exec(text)?.[1] ?? '?');
    try {
      return await parser.parseInSlices(text, oldTree, control);
    } finally {
      inFlight--;
    }
  };
  recording.parse = (text, oldTree) => {
    order.push(/^# (\S+)/.exec(text)?.[1] ?? '?');
    return parser.parse(text, oldTree);
  };
  // Each over slicedReadLength: many slices each.
  const large = (name: string) => `# ${name}\n${Array.from({ length: 1000 }, (_, index) => `variable "${name.replace('/', '_')}_${index}" {\n  default = ${index}\n}\n`).join('\n')}`;
  const files: Record<string, string> = {};
  for (let index = 0; index < 6; index++) files[path.resolve(`/held/background/b${index}.tf`)] = large(`background/b${index}`);
  for (let index = 0; index < 3; index++) files[path.resolve(`/held/opened/o${index}.tf`)] = large(`opened/o${index}`);
  assert.ok(files[path.resolve('/held/opened/o0.tf')]!.length >= slicedReadLength);
  const fileSystem = new MemoryFileSystem(files);
  const background = ModuleFolderModel.load({ folder: '/held/background', parser: recording, fileSystem, yieldBetweenFiles: true, background: true });
  while (order.length < 1) await new Promise((resolve) => setImmediate(resolve));
  const opened = ModuleFolderModel.load({ folder: '/held/opened', parser: recording, fileSystem, yieldBetweenFiles: true });
  const models = await Promise.all([background, opened]);
  try {
    assert.equal(mostAtOnce, 1, 'one sliced parse at a time');
    const firstOpened = order.findIndex((name) => name.startsWith('opened/'));
    assert.deepEqual(order.slice(firstOpened, firstOpened + 3), ['opened/o0', 'opened/o1', 'opened/o2'], `the opened folder's files right after the background file under way: ${order.join(' ')}`);
    assert.ok(firstOpened <= 2, `at most the background file under way before them: ${order.join(' ')}`);
    assert.equal(models[1].index.variableNames().length, 3 * 1000);
  } finally {
    for (const model of models) model.dispose();
  }
});

// DiagnosticsPublisher with a real model: a folder whose large document opened is still being read (in slices) has
// none of that document's facts yet, and publishes nothing until it is read; otherwise every `var.x` declared there
// would flash as undeclared in the other files.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver';
import { computeFolderDiagnostics } from '../../server/src/features/diagnostics';
import { DiagnosticsPublisher } from '../../server/src/features/diagnosticsPublisher';
import { ModuleFolderModel } from '../../server/src/model';
import { fileUriOf } from '../../server/src/model/filePaths';
import { MemoryFileSystem, testParser } from '../model/helpers';

const folder = path.resolve('/work/publisher');
const variables = path.join(folder, 'variables.tf');
const main = path.join(folder, 'main.tf');

test('a folder whose large document opened is not read yet publishes nothing until it is, then its diagnostics', async () => {
  const parser = await testParser();
  const declarations = Array.from({ length: 50 }, (_, index) => `variable "v_${index}" {}\n`).join('');
  const fileSystem = new MemoryFileSystem({ [variables]: declarations, [main]: 'output "o" {\n  value = [var.v_7, var.missing]\n}\n' });
  // Loaded for this open, as the server does: the open document is read in slices, not from disk.
  const model = await ModuleFolderModel.load({ folder, parser, fileSystem, parseOpenedInSlicesFrom: 100, openDocuments: new Map([[variables, declarations]]) });
  const sent: { uri: string; diagnostics: Diagnostic[] }[] = [];
  const publisher = new DiagnosticsPublisher({
    parser: Promise.resolve(parser),
    models: () => [model],
    versionOf: () => undefined,
    send: (uri, diagnostics) => sent.push({ uri, diagnostics }),
    log: () => undefined,
    compute: (_folder, current) => (current ? computeFolderDiagnostics(current, undefined, parser) : new Map()),
  });
  try {
    assert.equal(model.awaitsFirstRead(), true);
    publisher.schedule(folder);
    await publisher.settled();
    assert.equal(sent.length, 0, 'nothing published while the open document is unread');

    assert.equal(await model.parsePendingInSlices(variables, { cancelled: () => false }), true);
    assert.equal(model.awaitsFirstRead(), false);
    publisher.schedule(folder);
    await publisher.settled();
    const mainDiagnostics = sent.find((each) => each.uri === fileUriOf(main))?.diagnostics ?? [];
    const undeclared = mainDiagnostics.map((diagnostic) => (diagnostic.data as { name?: string } | undefined)?.name ?? diagnostic.message);
    assert.equal(undeclared.length, 1, `only var.missing is undeclared: ${JSON.stringify(undeclared)}`);
    assert.match(String(undeclared[0]), /missing/);
  } finally {
    publisher.dispose();
    model.dispose();
  }
});

test('what one flush publishes for a folder is sent together (one write over stdio), folder by folder', async () => {
  const parser = await testParser();
  const folders = [path.resolve('/work/together-a'), path.resolve('/work/together-b')];
  const models = await Promise.all(
    folders.map((each) =>
      ModuleFolderModel.load({
        folder: each,
        parser,
        fileSystem: new MemoryFileSystem({ [path.join(each, 'main.tf')]: 'output "o" {\n  value = var.missing\n}\n', [path.join(each, 'other.tf')]: 'output "p" {\n  value = var.gone\n}\n' }),
      }),
    ),
  );
  const events: string[] = [];
  let inBurst = false;
  const publisher = new DiagnosticsPublisher({
    parser: Promise.resolve(parser),
    models: () => models,
    versionOf: () => undefined,
    send: (uri) => events.push(`${inBurst ? 'together' : 'alone'} ${path.basename(path.dirname(uri))}/${path.basename(uri)}`),
    sendTogether: (sendAll) => {
      inBurst = true;
      events.push('burst');
      try {
        sendAll();
      } finally {
        inBurst = false;
      }
    },
    log: () => undefined,
    compute: (_folder, current) => (current ? computeFolderDiagnostics(current, undefined, parser) : new Map()),
  });
  try {
    for (const each of folders) publisher.schedule(each);
    await publisher.settled();
    assert.deepEqual(events, ['burst', 'together together-a/main.tf', 'together together-a/other.tf', 'burst', 'together together-b/main.tf', 'together together-b/other.tf']);
  } finally {
    publisher.dispose();
    for (const model of models) model.dispose();
  }
});

// A file over hcpTerraform.analysis.maxFileSizeMB is edited as text only: no analysis (no diagnostics from it), one
// notice the first time, and analysis again as soon as it is back under the limit.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test } from 'node:test';
import {
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  PublishDiagnosticsNotification,
  ShowMessageNotification,
  ShowMessageRequest,
} from 'vscode-languageserver-protocol/node';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { readSettings } from '../../server/src/config/settings';
import { startLspProcess } from '../helpers/lspProcess';

test('hcpTerraform.analysis.maxFileSizeMB is read in megabytes; a wrong value is ignored with a warning', () => {
  assert.equal(readSettings({ analysis: { maxFileSizeMB: 0.5 } }).value.maxFileSize, 512 * 1024);
  const wrong = readSettings({ analysis: { maxFileSizeMB: 'big' } });
  assert.equal(wrong.value.maxFileSize, undefined);
  assert.match(wrong.warnings.join(' '), /maxFileSizeMB must be a number/);
});

test('a file over the limit gets no analysis and one notice; back under the limit it is analysed again', async () => {
  const base = await mkdtemp(path.join(os.tmpdir(), 'hcp-large-'));
  const messages: string[] = [];
  const requests: string[] = [];
  const published: PublishDiagnosticsParams[] = [];
  let wake: (() => void) | undefined;
  const server = await startLspProcess({}, { HOME: base }, (connection) => {
    // A notification: a window/showMessageRequest, even without choices, is a blocking prompt in Neovim.
    connection.onNotification(ShowMessageNotification.type, (params) => {
      messages.push(params.message);
    });
    connection.onRequest(ShowMessageRequest.type, (params) => {
      requests.push(params.message);
      return null;
    });
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      published.push(params);
      wake?.();
    });
  });
  const until = (predicate: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching diagnostics within 20 s')), 20_000);
      const check = () => {
        if (predicate()) {
          clearTimeout(timer);
          wake = undefined;
          resolve();
        } else wake = check;
      };
      check();
    });
  try {
    await server.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { hcpTerraform: { analysis: { maxFileSizeMB: 0.002 } } } });
    const big = pathToFileURL(path.join(base, 'big.tf')).href;
    const bigText = Array.from({ length: 100 }, (_, index) => `locals {\n  l_${index} = var.undeclared_big\n}\n`).join('\n'); // about 4 KB
    assert.ok(bigText.length > 0.002 * 1024 * 1024);
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: big, languageId: 'terraform', version: 1, text: bigText } });
    await until(() => published.some((p) => p.uri === big && p.version === 1));
    assert.deepEqual(published.filter((p) => p.uri === big).flatMap((p) => p.diagnostics), [], 'no analysis of the large file');
    assert.equal(messages.filter((m) => /big\.tf .* over hcpTerraform\.analysis\.maxFileSizeMB/.test(m)).length, 1);

    // Cut down under the limit: analysed again.
    await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: big, version: 2 },
      contentChanges: [{ text: 'locals {\n  x = var.shrunk\n}\n' }],
    });
    await until(() => published.some((p) => p.uri === big && p.version === 2));
    assert.ok(published.find((p) => p.uri === big && p.version === 2)?.diagnostics.some((d) => String(d.message).includes('"shrunk"')));

    // Over the limit again: analysis stops, without a second notice.
    await server.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: big, version: 3 }, contentChanges: [{ text: bigText }] });
    await until(() => published.some((p) => p.uri === big && p.version === 3));
    assert.deepEqual(published.find((p) => p.uri === big && p.version === 3)?.diagnostics, []);
    assert.equal(messages.filter((m) => /big\.tf/.test(m)).length, 1, 'one notice per file');
    assert.deepEqual(requests, [], 'nothing to answer');
    assert.equal(server.child.exitCode, null);
  } finally {
    await server.stop().catch(() => server.child.kill());
    await rm(base, { recursive: true, force: true });
  }
});

test('raising the limit analyses at once the files it now admits, open and closed, without waiting for an edit', async () => {
  const base = await mkdtemp(path.join(os.tmpdir(), 'hcp-large-'));
  // On disk, closed, over the default 2 MB: one reference, then a comment to make it large.
  const closedFile = path.join(base, 'closed.tf');
  await writeFile(closedFile, `locals {\n  c = var.undeclared_closed\n}\n# ${'x'.repeat(2.2 * 1024 * 1024)}\n`);
  const messages: string[] = [];
  const published: PublishDiagnosticsParams[] = [];
  const waiting = new Set<() => void>();
  const server = await startLspProcess({ rootUri: pathToFileURL(base).href, workspaceFolders: [{ uri: pathToFileURL(base).href, name: 'large' }] }, { HOME: base }, (connection) => {
    connection.onNotification(ShowMessageNotification.type, (params) => {
      messages.push(params.message);
      for (const check of [...waiting]) check();
    });
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      published.push(params);
      for (const check of [...waiting]) check();
    });
  });
  const until = (what: string, predicate: () => boolean) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        waiting.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.delete(check);
        reject(new Error(`${what}: not within 20 s`));
      }, 20_000);
      waiting.add(check);
      check();
    });
  const undeclared = (uri: string, name: string) => () => published.some((p) => p.uri === uri && p.diagnostics.some((d) => String(d.message).includes(`"${name}"`)));
  try {
    await until('the closed file found too large', () => messages.some((m) => /closed\.tf is 2\.2 MB/.test(m)));
    await server.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { hcpTerraform: { analysis: { maxFileSizeMB: 0.002 } } } });
    const open = pathToFileURL(path.join(base, 'open.tf')).href;
    const openText = `locals {\n  o = var.undeclared_open\n}\n# ${'y'.repeat(4096)}\n`;
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: open, languageId: 'terraform', version: 1, text: openText } });
    await until('the open file found too large', () => messages.some((m) => /open\.tf is .* over hcpTerraform\.analysis\.maxFileSizeMB/.test(m)));
    const closedUri = pathToFileURL(closedFile).href;
    assert.equal(undeclared(open, 'undeclared_open')() || undeclared(closedUri, 'undeclared_closed')(), false, 'neither is analysed yet');

    // "Raise the setting to analyse it": raised, both are analysed, with no edit.
    await server.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { hcpTerraform: { analysis: { maxFileSizeMB: 3 } } } });
    await until('the open file analysed', undeclared(open, 'undeclared_open'));
    await until('the closed file analysed', undeclared(closedUri, 'undeclared_closed'));
  } finally {
    await server.stop().catch(() => server.child.kill());
    await rm(base, { recursive: true, force: true });
  }
});

// What the server had to ignore reaches every editor once as window/showMessage, saying what to fix, not only
// window/logMessage: a tls.caFile that cannot be read, a credentials file that is not JSON (whose sign-in advice
// then says to fix it first, since `terraform login` writes to that same file).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DidChangeConfigurationNotification } from 'vscode-languageserver-protocol/node';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { startSession } from '../helpers/lspSession';

type Shown = { type: number; message: string };

describe('over LSP: settings and files the server cannot use', () => {
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  });
  after(() => emulator.close());

  test('a tls.caFile that cannot be read: one warning naming the setting and the fix, not repeated on each settings change', async () => {
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner, settings: { tls: { caFile: '/nonexistent/ca.pem' } } });
    try {
      const told = await session.waitFor<Shown>('window/showMessage', (p) => p.message.includes('caFile'));
      assert.equal(told.type, 2);
      assert.match(told.message, /hcpTerraform\.tls\.caFile names \/nonexistent\/ca\.pem, which cannot be read \(ENOENT\): fix the path or clear the setting/);
      const reread = session.waitForNext('workspace/configuration');
      await session.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: {} });
      await reread;
      // The settings are applied right after the answer: a request round trip later they have been.
      await session.connection.sendRequest('hcpTerraform/serverStatus');
      assert.equal(session.received.filter((m) => m.method === 'window/showMessage' && (m.params as Shown).message.includes('caFile')).length, 1);
    } finally {
      await session.close();
    }
  });

  test('a credentials file that is not JSON: one warning saying what to fix, and the sign-in advice says to fix it first', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'hcp-home-'));
    await mkdir(path.join(home, '.terraform.d'));
    await writeFile(path.join(home, '.terraform.d', 'credentials.tfrc.json'), `{ "credentials": { "x": { "token": "${emulator.tokens.owner}" `);
    const session = await startSession({ address: emulator.url, env: { HOME: home } });
    try {
      const told = await session.waitFor<Shown>('window/showMessage', (p) => p.message.includes('is not valid JSON'));
      assert.equal(told.type, 2);
      assert.match(told.message, /credentials\.tfrc\.json is not valid JSON, so the tokens `terraform login` saved there are not used\. Fix the JSON or delete the file/);
      const advice = await session.waitFor<Shown>('window/showMessage', (p) => p.message.includes('no API token'));
      assert.match(advice.message, /fix the credentials file first \(.*credentials\.tfrc\.json is not valid JSON\) and then run `terraform login/);
      for (const message of session.received) assert.doesNotMatch(JSON.stringify(message.params), new RegExp(emulator.tokens.owner), 'never the token');
    } finally {
      await session.close();
      await rm(home, { recursive: true, force: true });
    }
  });
});

// The hcpTerraform.workspace setting naming a workspace the service lacks: there is no line in the code for the
// not-found diagnostic, so the user is told with a notice (which setting, which workspace, what to check), once.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import type { ServiceLink } from '../../server/src/model';
import { OverrideNotFoundNotices } from '../../server/src/workspaces/overrideNotFoundNotices';
import { startSession } from '../helpers/lspSession';

describe('OverrideNotFoundNotices', () => {
  const notFound = { kind: 'not-found' as const, hostname: 'h', organization: 'acme', name: 'gone' };
  const linkNamedBy = (source: 'override' | 'cloud-block'): ServiceLink => ({
    mechanism: source === 'override' ? 'override' : 'cloud',
    organization: { value: 'acme', source },
    workspace: { kind: 'name', name: { value: 'gone', source } },
    problems: [],
  });

  test('told once per name from the setting; a name from the code is left to its diagnostic', () => {
    const shown: string[] = [];
    const notices = new OverrideNotFoundNotices((message) => shown.push(message));
    notices.update(linkNamedBy('cloud-block'), notFound);
    assert.deepEqual(shown, [], 'the workspace-link diagnostic on the name says it');
    notices.update(linkNamedBy('override'), notFound);
    notices.update(linkNamedBy('override'), notFound); // the folder changed again: not news
    notices.update(linkNamedBy('override'), { kind: 'loading' } as never);
    assert.equal(shown.length, 1);
    assert.match(shown[0]!, /hcpTerraform\.workspace setting names workspace "gone", which organization "acme" on h does not have .*Check hcpTerraform\.workspace\.name and the setting's organization/);
  });
});

describe('over LSP', () => {
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  });
  after(() => emulator.close());

  test('a folder with no cloud block, linked by the setting to a workspace the organization lacks: one warning', async () => {
    const session = await startSession({
      address: emulator.url,
      token: emulator.tokens.owner,
      settings: { workspace: { organization: 'acme-demo', name: 'no-such-ws' } },
      prepare: async (folder) => {
        const main = path.join(folder, 'main.tf');
        await writeFile(main, (await readFile(main, 'utf8')).replace(/\n  cloud \{[\s\S]*?\n  \}\n/, '\n'));
      },
    });
    try {
      const told = await session.waitFor<{ type: number; message: string }>('window/showMessage', (p) => p.message.includes('no-such-ws'));
      assert.equal(told.type, 2);
      assert.match(told.message, /the hcpTerraform\.workspace setting names workspace "no-such-ws", which organization "acme-demo" on [^ ]+ does not have/);
      const diagnostics = session.received.filter((m) => m.method === 'textDocument/publishDiagnostics').flatMap((m) => (m.params as { diagnostics: Array<{ code?: string }> }).diagnostics);
      assert.equal(diagnostics.filter((d) => d.code === 'workspace-link').length, 0, 'there is no line in the code to put it on');
      assert.equal(session.received.filter((m) => m.method === 'window/showMessage' && (m.params as { message: string }).message.includes('no-such-ws')).length, 1);
    } finally {
      await session.close();
    }
  });
});

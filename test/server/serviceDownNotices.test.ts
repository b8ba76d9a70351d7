// A service that stops answering is told once per host, naming the workspaces it holds up: with three linked folders
// it was three warnings (three hit-enter prompts in Neovim). A problem of one workspace is still told per workspace.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { LinkProblemNotices } from '../../server/src/workspaces/linkProblemNotices';
import { startSession } from '../helpers/lspSession';

describe('LinkProblemNotices: an outage', () => {
  test('told once for the host, naming every workspace linked there; again only after the host answered', () => {
    const shown: string[] = [];
    const notices = new LinkProblemNotices((message) => shown.push(message), (host) => (host === 'h' ? ['b', 'a', 'c'] : []));
    const down = (workspace: string) => ({ kind: 'service-down' as const, workspace, cause: 'Could not read the workspace: the connection was refused.' });
    notices.update('a', 'h', down('a'));
    notices.update('b', 'h', down('b'));
    notices.update('c', 'h', down('c'));
    notices.update('a', 'h', down('a')); // the next minute's retry
    assert.deepEqual(shown, ['HCP Terraform: h is not answering, so workspaces "a", "b" and "c" cannot be read (Could not read the workspace: the connection was refused). What was read before stays shown; trying again every minute.']);
    notices.update('x', 'other', down('x'));
    assert.match(shown[1]!, /^HCP Terraform: other is not answering, so workspace "x" cannot be read/, 'another host is its own outage');
    notices.update('b', 'h', { kind: 'unreadable', message: 'b alone' });
    assert.equal(shown[2], 'b alone', "a workspace's own problem is still its own notice");
    notices.update('a', 'h', undefined);
    notices.update('a', 'h', down('a'));
    assert.equal(shown.length, 4, 'down again after it answered: news again');
  });
});

describe('over LSP: a host that stops answering', () => {
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  });
  after(() => emulator.close());

  test('three folders linked to one host behind a failing gateway: one warning naming the three workspaces', async () => {
    // Every workspace read gets a proxy's 502 page, as when the service behind it is down (retried, then given up).
    emulator.control.injectFault({ method: 'GET', path: /^\/api\/v2\/organizations\/[^/]+\/workspaces\/[^/]+$/, kind: 'html', status: 502, times: Infinity });
    const linkedTo = (name: string) => `terraform {\n  cloud {\n    organization = "acme-demo"\n    workspaces {\n      name = "${name}"\n    }\n  }\n}\n`;
    const session = await startSession({
      address: emulator.url,
      token: emulator.tokens.owner,
      prepare: async (folder) => {
        for (const name of ['staging-api', 'sandbox']) {
          await mkdir(path.join(folder, 'envs', name), { recursive: true });
          await writeFile(path.join(folder, 'envs', name, 'main.tf'), linkedTo(name));
        }
      },
    });
    try {
      const isOutage = (params: { message: string }) => / is not answering/.test(params.message);
      const told = await session.waitFor<{ type: number; message: string }>('window/showMessage', isOutage);
      assert.equal(told.type, 2);
      assert.match(told.message, /workspaces "demo-app", "sandbox" and "staging-api" cannot be read \(Could not read the workspace: .*502/);
      // Every folder's read has failed by the time each is in error: wait for all three, then count the warnings.
      for (const name of ['demo-app', 'staging-api', 'sandbox']) {
        await session.waitFor<{ workspaceName?: string; state: { kind: string } }>('hcpTerraform/workspaceChanged', (folder) => folder.workspaceName === name && folder.state.kind === 'error');
      }
      const warnings = session.received.filter((m) => m.method === 'window/showMessage' && /could not read|not answering/.test((m.params as { message: string }).message));
      assert.equal(warnings.length, 1, warnings.map((m) => (m.params as { message: string }).message).join('\n'));
    } finally {
      await session.close();
      emulator.control.clearFaults();
    }
  });
});

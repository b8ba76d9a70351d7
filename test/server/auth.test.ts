// Where the server finds its token, over real LSP sessions: the client (initializationOptions, hcpTerraform/setToken),
// TF_TOKEN_<host>, and the credentials file `terraform login` writes (HOME pointed at a temp folder).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { serverStatusRequest, setTokenNotification, signInNeededNotification, workspaceChangedNotification } from '../../server/src/protocol';
import type { LinkedFolder, SignInNeededParams } from '../../server/src/protocol';
import { startSession } from '../helpers/lspSession';

describe('tokens from each source', () => {
  let emulator: RunningEmulator;
  let host: string;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    host = new URL(emulator.url).host;
  });
  after(async () => {
    await emulator.close();
  });

  const linkedAs = async (session: Awaited<ReturnType<typeof startSession>>, role: string) => {
    await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.state.kind === 'linked');
    const roles = emulator.control
      .requests()
      .filter((request) => request.path.startsWith('/api/v2/organizations/acme-demo/workspaces/demo-app'))
      .map((request) => request.tokenRole);
    assert.equal(roles.at(-1), role);
  };

  test('TF_TOKEN_<host> (Terraform encoding, the port kept: TF_TOKEN_127_0_0_1:<port>)', async () => {
    const session = await startSession({ address: emulator.url, env: { [`TF_TOKEN_127_0_0_1:${new URL(emulator.url).port}`]: emulator.tokens.member } });
    try {
      await linkedAs(session, 'member');
      assert.equal((await session.connection.sendRequest(serverStatusRequest)).signedIn, true);
    } finally {
      await session.close();
    }
  });

  test('the credentials file of `terraform login`, found through HOME', async () => {
    const session = await startSession({
      address: emulator.url,
      // Written before the server needs it: the server reads the file when it first links the folder.
      env: { HOME: await credentialsHome({ [host]: { token: emulator.tokens.reader } }) },
    });
    try {
      await linkedAs(session, 'reader');
    } finally {
      await session.close();
    }
  });

  test('the client token beats the environment', async () => {
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner, env: { [`TF_TOKEN_127_0_0_1:${new URL(emulator.url).port}`]: emulator.tokens.member } });
    try {
      await linkedAs(session, 'owner');
    } finally {
      await session.close();
    }
  });

  test('without a token: sign-in needed, then hcpTerraform/setToken links the folder', async () => {
    const session = await startSession({ address: emulator.url });
    try {
      const needed = await session.waitFor<SignInNeededParams>(signInNeededNotification.method);
      assert.equal(needed.hostname, host);
      assert.equal(needed.address, emulator.url);
      assert.match(needed.reason, /sign in/);
      const signedOut = await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.state.kind === 'signed-out');
      assert.equal(signedOut.signedIn, false);
      // An address works as well as a host name: the token belongs to its host.
      await session.connection.sendNotification(setTokenNotification, { hostname: `${emulator.url}/`, token: emulator.tokens.owner });
      await linkedAs(session, 'owner');
      assert.equal((await session.connection.sendRequest(serverStatusRequest)).signedIn, true);
    } finally {
      await session.close();
    }
    assert.doesNotMatch(session.stderr(), new RegExp(emulator.tokens.owner));
  });

  test('a refused token (401) asks to sign in again instead of failing', async () => {
    const session = await startSession({ address: emulator.url, token: 'not-a-valid-token-at-all' });
    try {
      const needed = await session.waitFor<SignInNeededParams>(signInNeededNotification.method);
      assert.match(needed.reason, /refused the API token \(401\)/);
      assert.equal((await session.connection.sendRequest(serverStatusRequest)).version.length > 0, true);
    } finally {
      await session.close();
    }
    assert.doesNotMatch(session.stderr(), /not-a-valid-token-at-all/);
  });
});

const homes: string[] = [];
after(async () => {
  await Promise.all(homes.map((home) => rm(home, { recursive: true, force: true })));
});

async function credentialsHome(credentials: Record<string, { token: string }>): Promise<string> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'home-'));
  await mkdir(path.join(home, '.terraform.d'));
  await writeFile(path.join(home, '.terraform.d', 'credentials.tfrc.json'), JSON.stringify({ credentials }));
  homes.push(home);
  return home;
}

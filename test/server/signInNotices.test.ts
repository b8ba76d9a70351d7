// A missing or refused token in an editor other than VS Code: window/showMessage once per host with what to do
// there, and serverStatus says signedIn: false after a 401. VS Code (prompts.signIn) gets only its own prompt.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { SignInNotices, signInAdvice } from '../../server/src/auth/signInNotices';
import { serverStatusRequest, setTokenNotification, signInNeededNotification, workspaceChangedNotification } from '../../server/src/protocol';
import type { LinkedFolder } from '../../server/src/protocol';
import { startSession } from '../helpers/lspSession';

describe('sign-in advice for other editors', () => {
  test('names the variable (with env for a port), terraform login and its file, and hcpTerraform/setToken; never a token', () => {
    const missing = signInAdvice('tfe.example.com', undefined, '/home/u/.terraform.d/credentials.tfrc.json');
    assert.match(missing, /no API token for tfe\.example\.com/);
    assert.match(missing, /set TF_TOKEN_tfe_example_com=<token>/);
    assert.match(missing, /`terraform login tfe\.example\.com` \(it writes \/home\/u\/\.terraform\.d\/credentials\.tfrc\.json\)/);
    assert.match(missing, /hcpTerraform\/setToken \{"hostname": "tfe\.example\.com", "token": "<token>"\}/);
    assert.match(signInAdvice('localhost:8443', undefined, 'f'), /env 'TF_TOKEN_localhost:8443=<token>'/);
    const refused = signInAdvice('tfe.example.com', { token: 'the-secret', source: 'environment', from: 'TF_TOKEN_tfe_example_com' }, 'f');
    assert.match(refused, /refused the API token from the variable TF_TOKEN_tfe_example_com \(401\)/);
    assert.doesNotMatch(refused, /the-secret/);
  });

  test('a credentials file that cannot be used: fix it first, since `terraform login` writes to it', () => {
    const advice = signInAdvice('tfe.example.com', undefined, '/h/credentials.tfrc.json', '/h/credentials.tfrc.json is not valid JSON');
    assert.match(advice, /fix the credentials file first \(\/h\/credentials\.tfrc\.json is not valid JSON\) and then run `terraform login tfe\.example\.com` \(it writes that file\)/);
  });

  test('once per host, again only after a new token', () => {
    const shown: string[] = [];
    const notices = new SignInNotices({ show: (m) => shown.push(m), enabled: () => true, token: () => undefined, credentialsFile: () => 'f' });
    notices.signInNeeded('a.example.com');
    notices.signInNeeded('a.example.com');
    notices.signInNeeded('b.example.com');
    assert.equal(shown.length, 2);
    notices.reset('a.example.com');
    notices.signInNeeded('a.example.com');
    assert.equal(shown.length, 3);
  });
});

describe('missing and refused tokens over LSP', () => {
  let emulator: RunningEmulator;
  let host: string;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    host = new URL(emulator.url).host;
  });
  after(async () => {
    await emulator.close();
  });

  test('no token: window/showMessage (a warning) with what to do in this editor', async () => {
    const session = await startSession({ address: emulator.url });
    try {
      const shown = await session.waitFor<{ type: number; message: string }>('window/showMessage', (m) => m.message.includes('no API token'));
      assert.equal(shown.type, 2);
      assert.ok(shown.message.includes(`TF_TOKEN_127_0_0_1:${new URL(emulator.url).port}`), shown.message);
      assert.ok(shown.message.includes(`terraform login ${host}`));
      assert.ok(shown.message.includes('hcpTerraform/setToken'));
      assert.equal((await session.connection.sendRequest(serverStatusRequest)).signedIn, false);
    } finally {
      await session.close();
    }
  });

  test('a refused token: told once, serverStatus says signedIn false; a good token signs in again', async () => {
    const session = await startSession({ address: emulator.url, token: 'made-up-token-for-the-401-test' });
    try {
      const shown = await session.waitFor<{ message: string }>('window/showMessage', (m) => m.message.includes('refused'));
      assert.match(shown.message, /refused the API token from the editor .*\(401\)/);
      assert.doesNotMatch(shown.message, /made-up-token/);
      assert.equal((await session.connection.sendRequest(serverStatusRequest)).signedIn, false);
      await session.connection.sendNotification(setTokenNotification, { hostname: host, token: emulator.tokens.member });
      await session.waitForNext<LinkedFolder>(workspaceChangedNotification.method, (f) => f.state.kind === 'linked');
      assert.equal((await session.connection.sendRequest(serverStatusRequest)).signedIn, true);
      assert.equal(session.received.filter((m) => m.method === 'window/showMessage').length, 1);
    } finally {
      await session.close();
    }
  });

  test('VS Code (prompts.signIn) gets hcpTerraform/signInNeeded only, no window/showMessage', async () => {
    const session = await startSession({ address: emulator.url, initializationOptions: { prompts: { signIn: true } } });
    try {
      await session.waitFor(signInNeededNotification.method);
      await session.connection.sendRequest(serverStatusRequest); // a round trip: anything sent before it has arrived
      assert.ok(!session.received.some((m) => m.method === 'window/showMessage'));
    } finally {
      await session.close();
    }
  });
});

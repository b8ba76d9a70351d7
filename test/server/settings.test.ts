// Configuration parsing: good values are kept, wrong ones dropped with a warning that says what to enter.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DidChangeConfigurationNotification } from 'vscode-languageserver-protocol/node';
import { hostOfAddress, normalizeAddress, readInitializationOptions, readSettings } from '../../server/src/config/settings';
import { serverStatusRequest } from '../../server/src/protocol';
import { startSession } from '../helpers/lspSession';

describe('initializationOptions', () => {
  test('keeps a URL address and a token', () => {
    assert.deepEqual(readInitializationOptions({ address: 'https://tfe.example.com/', token: ' abc ' }), {
      value: { address: 'https://tfe.example.com', token: 'abc' },
      warnings: [],
    });
  });

  test('drops wrong values with warnings that never quote the token', () => {
    const result = readInitializationOptions({ address: 'not a url', token: 12345 });
    assert.deepEqual(result.value, {});
    assert.equal(result.warnings.length, 2);
    assert.match(result.warnings[0]!, /not a service address.*https:\/\/app\.terraform\.io/);
    assert.match(result.warnings[1]!, /token must be a string/);
    assert.doesNotMatch(result.warnings.join(' '), /12345/);
    assert.equal(readInitializationOptions('oops').warnings.length, 1);
  });

  test('a token that came with a refused address is dropped: it would otherwise go to the default service', () => {
    const result = readInitializationOptions({ address: 'tfe.example.com', token: 'MyTfeToken.atlasv1.abcdef' });
    assert.deepEqual(result.value, {});
    assert.match(result.warnings[0]!, /"tfe\.example\.com" is not a service address: enter a URL such as https:\/\/tfe\.example\.com/);
    assert.match(result.warnings[1]!, /token is ignored too/);
    assert.doesNotMatch(result.warnings.join(' '), /MyTfeToken/);
    assert.deepEqual(readInitializationOptions({ token: 'alone' }).value, { token: 'alone' }, 'without an address the token is the default service\'s');
  });

  test('a refused address is quoted only where it cannot be a secret (a token pasted there, a query string)', () => {
    const pasted = 'emulatorReader.atlasv1.fixedReaderTokenValueThatIsLongerThanAnyDnsLabelCouldEverBeAllowedToBe';
    for (const raw of [pasted, `ftp://tfe.example.com/?token=QueryS3cret`, 'https://tfe.example.com:99999/?t=QueryS3cret', 'abc def ghi']) {
      const [warning] = readSettings({ address: raw }).warnings;
      assert.match(warning!, /is not a service address/);
      assert.doesNotMatch(warning!, /fixedReader|QueryS3cret|abc def/, raw);
    }
    assert.match(readSettings({ address: 'ftp://tfe.example.com/x?token=QueryS3cret' }).warnings[0]!, /"ftp:\/\/tfe\.example\.com…"/);
  });

  test('prompts: what the client asks its user for; only true counts, anything else is a warning', () => {
    assert.deepEqual(readInitializationOptions({ prompts: { trustHost: true, variableValue: 'yes', changeRequestSubject: true, commandOutcomes: 1, confirmations: 'true' } }).value.prompts, {
      trustHost: true,
      variableValue: false,
      signIn: false,
      changeRequestSubject: true,
      commandOutcomes: false,
      confirmations: false,
    });
    assert.equal(readInitializationOptions({ prompts: { confirmations: true } }).value.prompts?.confirmations, true);
    assert.match(readInitializationOptions({ prompts: ['trustHost'] }).warnings[0] ?? '', /prompts must be an object/);
  });
});

describe('hcpTerraform settings', () => {
  test('an address refused for its credentials is quoted without them', () => {
    const result = readSettings({ address: 'https://me:s3cr3t-t0ken@tfe.example.com' });
    assert.deepEqual(result.value, { override: {} });
    assert.equal(result.warnings.length, 1);
    assert.match(result.warnings[0]!, /\[redacted\]@tfe\.example\.com/);
    assert.ok(!result.warnings[0]!.includes('s3cr3t-t0ken'), 'the warning repeats the credentials');
    const init = readInitializationOptions({ address: 'me:other-s3cr3t@tfe.example.com' });
    assert.ok(!init.warnings.join(' ').includes('other-s3cr3t'), 'the warning repeats the credentials');
  });

  test('reads the address and the workspace override', () => {
    const result = readSettings({ address: 'http://127.0.0.1:8080', workspace: { hostname: 'TFE.example.com', organization: 'acme', name: 'app', project: 'web' } });
    assert.deepEqual(result.value, {
      address: 'http://127.0.0.1:8080',
      override: { hostname: 'tfe.example.com', organization: 'acme', workspace: 'app', project: 'web' },
    });
    assert.deepEqual(result.warnings, []);
  });

  test('ignores what is mistyped, keeps the rest', () => {
    const result = readSettings({ address: 42, workspace: { organization: 'acme', name: ['x'], hostname: 'https://nope/' } });
    assert.deepEqual(result.value, { override: { organization: 'acme' } });
    assert.equal(result.warnings.length, 3);
    assert.deepEqual(readSettings({ workspace: 'acme/app' }).value, { override: {} });
    assert.deepEqual(readSettings(null), { value: { override: {} }, warnings: [] });
  });

  test('addresses are normalized and hosts keep their port', () => {
    assert.equal(normalizeAddress('https://app.terraform.io/'), 'https://app.terraform.io');
    assert.equal(normalizeAddress('ftp://x'), undefined);
    assert.equal(normalizeAddress('https://user:pw@x.example'), undefined);
    assert.equal(hostOfAddress('http://127.0.0.1:8080'), '127.0.0.1:8080');
  });
});

describe('a setting the server ignores, over LSP', () => {
  test('is told with window/showMessage (a warning), once, without the credentials in it', async () => {
    const session = await startSession({
      address: 'http://127.0.0.1:9',
      initializationOptions: { address: 'https://user:s3cret@not a url' },
      settings: { address: 42 },
    });
    try {
      const shown = await session.waitFor<{ type: number; message: string }>('window/showMessage', (m) => m.message.includes('initializationOptions.address'));
      assert.equal(shown.type, 2);
      assert.match(shown.message, /is not a service address.*: enter a URL such as https:\/\/app\.terraform\.io.*; ignored\./);
      assert.doesNotMatch(shown.message, /s3cret/);
      await session.waitFor<{ message: string }>('window/showMessage', (m) => m.message.includes('hcpTerraform.address'));
      // Read again on a configuration change: the log says it again, the screen does not.
      await session.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
      await session.waitForNext<{ message: string }>('window/logMessage', (m) => m.message.includes('hcpTerraform.address'));
      // A round trip: whatever the server sent with that log line has arrived before this answer.
      await session.connection.sendRequest(serverStatusRequest);
      const onScreen = session.received.filter((m) => m.method === 'window/showMessage' && String((m.params as { message: string }).message).includes('hcpTerraform.address'));
      assert.equal(onScreen.length, 1);
    } finally {
      await session.close();
    }
  });
});

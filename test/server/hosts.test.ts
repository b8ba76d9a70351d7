// One API client per host, built with that host's token only; the configured address keeps its scheme and path.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TokenResolver } from '../../server/src/auth/tokens';
import { ServiceHosts } from '../../server/src/workspaces/hosts';
import { ManualClock } from '../helpers/manualClock';

describe('ServiceHosts', () => {
  const make = () => {
    const tokens = new TokenResolver({ environment: { TF_TOKEN_tfe_example_com: 'tfe-token' }, homeDirectory: '/nonexistent' });
    const hosts = new ServiceHosts({ tokens, timers: new ManualClock() });
    return { tokens, hosts };
  };

  test('addresses: https for named hosts, the configured address (scheme, port, path) for its own host', () => {
    const { hosts } = make();
    assert.equal(hosts.addressFor('tfe.example.com'), 'https://tfe.example.com');
    hosts.setConfiguredAddress('http://127.0.0.1:8080/prefix');
    assert.equal(hosts.configuredHost, '127.0.0.1:8080');
    assert.equal(hosts.addressFor('127.0.0.1:8080'), 'http://127.0.0.1:8080/prefix');
    assert.equal(hosts.addressFor('app.terraform.io'), 'https://app.terraform.io');
  });

  test('a client exists only for hosts with a token, and each is bound to its own host', async () => {
    const { tokens, hosts } = make();
    assert.equal(hosts.clientFor('app.terraform.io'), undefined);
    const tfe = hosts.clientFor('tfe.example.com');
    assert.equal(tfe?.address.host, 'tfe.example.com');
    tokens.setClientToken('app.terraform.io', 'hcp-token');
    const hcp = hosts.clientFor('app.terraform.io');
    assert.equal(hcp?.address.host, 'app.terraform.io');
    assert.notEqual(hcp, tfe);
    assert.equal(hosts.clientFor('APP.terraform.io'), hcp, 'the same client is reused');
    await hosts.dispose();
  });

  test('a new token for a host gives a new client; signing out removes it', async () => {
    const { tokens, hosts } = make();
    tokens.setClientToken('app.terraform.io', 'first');
    const first = hosts.clientFor('app.terraform.io');
    tokens.setClientToken('app.terraform.io', 'second');
    const second = hosts.clientFor('app.terraform.io');
    assert.ok(first && second && first !== second);
    tokens.setClientToken('app.terraform.io', null);
    assert.equal(hosts.clientFor('app.terraform.io'), undefined);
    assert.equal(hosts.isSignedIn('app.terraform.io'), false);
    await hosts.dispose();
  });
});

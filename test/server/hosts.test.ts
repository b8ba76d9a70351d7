// One API client per host, built with that host's token only; the configured address keeps its scheme and path.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AddressTrust } from '../../server/src/auth/addressTrust';
import { isLoopbackHost, tokenOriginProblem } from '../../server/src/auth/origins';
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

describe('a token goes only to its own origin (https; http only on loopback)', () => {
  test('the origin rule', () => {
    assert.equal(tokenOriginProblem('tfe.example.com', 'https://tfe.example.com/prefix'), undefined);
    assert.equal(tokenOriginProblem('127.0.0.1:8080', 'http://127.0.0.1:8080'), undefined);
    assert.equal(tokenOriginProblem('localhost:8080', 'http://localhost:8080'), undefined);
    assert.match(tokenOriginProblem('tfe.example.com', 'http://tfe.example.com') ?? '', /plain http:\/\/.*Use https:\/\/tfe\.example\.com/);
    assert.match(tokenOriginProblem('tfe.example.com', 'https://tfe.example.com:8443') ?? '', /is not tfe\.example\.com/);
    assert.ok(isLoopbackHost('127.1.2.3:99') && isLoopbackHost('[::1]:8080') && !isLoopbackHost('127.0.0.1.nip.io') && !isLoopbackHost('localhost.example.com'));
  });

  test('an http:// address for a host that is not this machine gets no client, and says why', async () => {
    const tokens = new TokenResolver({ environment: {}, homeDirectory: '/nonexistent' });
    const hosts = new ServiceHosts({ tokens, timers: new ManualClock() });
    tokens.setClientToken('app.terraform.io', 'hcp-token');
    hosts.setConfiguredAddress('http://app.terraform.io');
    assert.equal(hosts.clientFor('app.terraform.io'), undefined);
    assert.equal(hosts.isSignedIn('app.terraform.io'), false);
    assert.match(hosts.blocked('app.terraform.io') ?? '', /plain http:\/\//);
    hosts.setConfiguredAddress('https://app.terraform.io');
    assert.equal(hosts.clientFor('app.terraform.io')?.address.protocol, 'https:');
    await hosts.dispose();
  });
});

describe('hosts the workspace named are trusted before their token is used', () => {
  const make = () => {
    const asked: string[] = [];
    const decided: Array<[string, boolean]> = [];
    let answer: (trusted: boolean) => void = () => undefined;
    const trust = new AddressTrust({
      ask: (host) => {
        asked.push(host);
        return new Promise<boolean>((resolve) => (answer = resolve));
      },
      onDecided: (host, trusted) => decided.push([host, trusted]),
      log: () => undefined,
    });
    const tokens = new TokenResolver({ environment: { TF_TOKEN_tfe_example_com: 'tfe-token' }, homeDirectory: '/nonexistent' });
    const hosts = new ServiceHosts({ tokens, timers: new ManualClock(), trust });
    const decidedOnce = () => new Promise<void>((resolve) => setImmediate(resolve));
    return { trust, tokens, hosts, asked, decided, answer: (trusted: boolean) => answer(trusted), decidedOnce };
  };

  test('asked once; no client until trusted; then the client', async () => {
    const { hosts, asked, decided, answer, decidedOnce } = make();
    assert.equal(hosts.clientFor('tfe.example.com'), undefined);
    assert.equal(hosts.clientFor('tfe.example.com'), undefined);
    assert.deepEqual(asked, ['tfe.example.com'], 'asked more than once');
    assert.match(hosts.blocked('tfe.example.com') ?? '', /Waiting for you to trust tfe\.example\.com/);
    answer(true);
    await decidedOnce();
    assert.deepEqual(decided, [['tfe.example.com', true]]);
    assert.equal(hosts.clientFor('tfe.example.com')?.address.host, 'tfe.example.com');
    await hosts.dispose();
  });

  test('declined: no token goes there and nobody is asked again', async () => {
    const { hosts, asked, answer, decidedOnce } = make();
    hosts.clientFor('tfe.example.com');
    answer(false);
    await decidedOnce();
    assert.equal(hosts.clientFor('tfe.example.com'), undefined);
    assert.match(hosts.blocked('tfe.example.com') ?? '', /did not trust/);
    assert.equal(asked.length, 1);
  });

  test("the user's own hosts (their address, a sign-in) and hosts without a token ask nothing", async () => {
    const { trust, tokens, hosts, asked } = make();
    trust.trust('tfe.example.com');
    assert.ok(hosts.clientFor('tfe.example.com'));
    assert.equal(hosts.clientFor('nothing.example.com'), undefined);
    tokens.setClientToken('app.terraform.io', 'hcp');
    trust.trust('app.terraform.io');
    assert.ok(hosts.clientFor('app.terraform.io'));
    assert.deepEqual(asked, []);
    await hosts.dispose();
  });
});

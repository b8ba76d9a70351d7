// #14 item 9: the user reads "rate limited, retrying in N s" when a request waits, in any LSP client
// (window/showMessage), without a flood: short waits stay silent, one notice per host per quiet period.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RequestWait } from '../../server/src/api';
import { WaitNotices } from '../../server/src/workspaces/waitNotices';
import { sendJson, startTestServer } from '../api/support/testServer';
import { ManualClock } from '../helpers/manualClock';
import { signedInHosts } from '../helpers/signedInHosts';

describe('WaitNotices', () => {
  test('a long wait is told once per host per quiet period; short waits stay silent', async () => {
    const clock = new ManualClock();
    const shown: string[] = [];
    const notices = new WaitNotices({ timers: clock, show: (message) => shown.push(message) });
    notices.notice('app.terraform.io', { operation: 'listWorkspaceRuns', reason: 'rate-limited', waitMs: 800 });
    assert.deepEqual(shown, [], 'a short wait is no news');
    notices.notice('app.terraform.io', { operation: 'listWorkspaceRuns', reason: 'rate-limited', waitMs: 24_200 });
    assert.deepEqual(shown, ["HCP Terraform: app.terraform.io is rate limiting requests (429); retrying in 25 s (to list the workspace's runs)."]);
    notices.notice('app.terraform.io', { operation: 'getRun', reason: 'rate-limited', waitMs: 20_000 });
    assert.equal(shown.length, 1, 'not again within the quiet period');
    notices.notice('tfe.example.com', { operation: 'getRun', reason: 'unreachable', waitMs: 4_000 });
    assert.equal(shown[1], 'HCP Terraform: tfe.example.com could not be reached; retrying in 4 s (to read the run).', 'each host has its own');
    await clock.advance(30_000);
    notices.notice('app.terraform.io', { operation: 'getRun', reason: 'rate-limited', waitMs: 3_000 });
    assert.equal(shown.length, 3, 'told again after the quiet period');
  });

  test('each cause is told as it is: the client pacing itself is not blamed on the service (it went on while the service was down)', () => {
    const told = (wait: Omit<RequestWait, 'operation' | 'waitMs'>) => {
      const shown: string[] = [];
      new WaitNotices({ timers: new ManualClock(), show: (message) => shown.push(message) }).notice('h.example', { operation: 'listWorkspaceRuns', waitMs: 8_000, ...wait });
      return shown[0];
    };
    assert.equal(told({ reason: 'paced' }), "HCP Terraform: holding a request to h.example for 8 s (to list the workspace's runs) to stay within the service's rate limits.");
    assert.doesNotMatch(told({ reason: 'paced' })!, /h\.example is rate limiting/);
    assert.equal(told({ reason: 'unreachable' }), "HCP Terraform: h.example could not be reached; retrying in 8 s (to list the workspace's runs).");
    assert.equal(told({ reason: 'timed-out' }), "HCP Terraform: h.example did not answer in time; retrying in 8 s (to list the workspace's runs).");
    assert.equal(told({ reason: 'server-error', status: 502 }), "HCP Terraform: h.example answered with an error (502); retrying in 8 s (to list the workspace's runs).");
  });
});

describe('ServiceHosts → wait notices', () => {
  test("a host's client reports its waits with the host name (a 429 that asks for 3 s)", async () => {
    let first = true;
    const server = await startTestServer((_request, response) => {
      if (first) {
        first = false;
        return sendJson(response, 429, { errors: [{ status: 429, title: 'Too many requests' }] }, { 'x-ratelimit-reset': '3' });
      }
      response.writeHead(204).end();
    });
    const clock = new ManualClock();
    const waits: Array<{ host: string; wait: RequestWait }> = [];
    const { hosts } = signedInHosts(server.url, 'wait-notice-token', clock, { onWait: (host, wait) => waits.push({ host, wait }) });
    const pinging = hosts.clientFor(hosts.configuredHost)!.account.ping();
    // The ping waits 3 s (plus jitter) on the manual clock after its 429: wait for the notice, then let time pass.
    for (let turn = 0; turn < 10_000 && waits.length === 0; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(waits[0]?.host, hosts.configuredHost);
    assert.equal(waits[0]?.wait.reason, 'rate-limited');
    assert.ok(waits[0]!.wait.waitMs >= 3_000);
    await clock.advance(waits[0]!.wait.waitMs);
    await pinging;
    await hosts.dispose();
    await server.close();
  });
});

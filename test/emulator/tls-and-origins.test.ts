// The emulator behind TLS and behind a proxy: https with its own certificate, trusted by the API client through
// hcpTerraform.tls.caFile; every absolute URL it hands out starts with the public origin; the redacted plan JSON.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { ServiceClient } from '../../server/src/api';
import { trustedCertificates } from '../../server/src/api/trustedCertificates';
import { readSettings } from '../../server/src/config/settings';

describe('the emulator on TLS', () => {
  let emulator: RunningEmulator;
  let caFile: string;
  before(async () => {
    emulator = await startEmulator({ tls: true, clock: 'manual' });
    caFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'hcp-tls-')), 'emulator.ca.pem');
    writeFileSync(caFile, emulator.caPem!);
  });
  after(() => emulator.close());

  test('serves https with a certificate the client trusts through hcpTerraform.tls.caFile', async () => {
    assert.match(emulator.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    assert.match(emulator.caPem ?? '', /BEGIN CERTIFICATE/);
    const trusted = new ServiceClient({ address: emulator.url, token: emulator.tokens.owner, ca: trustedCertificates(caFile, {}) });
    try {
      const me = await trusted.account.details();
      assert.equal(me.account.attributes.username, 'olivia-owner');
    } finally {
      await trusted.close();
    }
  });

  test('without the CA the connection is refused, never silently trusted', async () => {
    const untrusting = new ServiceClient({ address: emulator.url, token: emulator.tokens.owner, retry: { maxAttempts: 1 } });
    try {
      await assert.rejects(untrusting.account.details());
    } finally {
      await untrusting.close();
    }
  });

  test('absolute URLs use https and the host the client addressed', async () => {
    const workspace = await fetchJson(emulator, '/organizations/acme-demo/workspaces/demo-app');
    const response = await fetchJson(emulator, `/workspaces/${workspace.data.id}/runs`);
    const plan = await fetchJson(emulator, `/runs/${response.data[0].id}/plan`);
    assert.match(plan.data.attributes['log-read-url'], new RegExp(`^${emulator.url}/`));
  });

  test('a bad caFile says what to fix; the setting is read from the tls section', () => {
    assert.throws(() => trustedCertificates('/nonexistent/ca.pem', {}), /hcpTerraform\.tls\.caFile names \/nonexistent\/ca\.pem, which cannot be read/);
    const notPem = path.join(path.dirname(caFile), 'not.pem');
    writeFileSync(notPem, 'hello');
    assert.throws(() => trustedCertificates(notPem, {}), /holds no PEM certificate/);
    assert.equal(trustedCertificates(undefined, {}), undefined);
    assert.ok(trustedCertificates(caFile, { NODE_EXTRA_CA_CERTS: caFile })!.length > 2);
    assert.equal(readSettings({ tls: { caFile: ' /etc/ca.pem ' } }).value.caFile, '/etc/ca.pem');
    assert.deepEqual(readSettings({ tls: { caFile: 3 } }).warnings, ['hcpTerraform.tls.caFile must be the path of a PEM file; ignored.']);
  });

  // With a manual clock nothing moves: TLS requests from a custom fetch need the CA too.
  async function fetchJson(target: RunningEmulator, apiPath: string): Promise<any> {
    const { Agent, request } = await import('undici');
    const dispatcher = new Agent({ connect: { ca: target.caPem } });
    try {
      const answer = await request(`${target.url}/api/v2${apiPath}`, { dispatcher, headers: { Authorization: `Bearer ${target.tokens.owner}` } });
      assert.equal(answer.statusCode, 200);
      return answer.body.json();
    } finally {
      await dispatcher.close();
    }
  }
});

describe('the emulator behind a proxy', () => {
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await startEmulator({ clock: 'manual', publicUrl: 'https://tfe.example.test:8443' });
  });
  after(() => emulator.close());

  const get = (apiPath: string, headers: Record<string, string> = {}) =>
    fetch(`${emulator.url}/api/v2${apiPath}`, { headers: { Authorization: `Bearer ${emulator.tokens.owner}`, ...headers } }).then((r) => r.json() as Promise<any>);
  const demoAppRuns = async (filter = '') => get(`/workspaces/${(await get('/organizations/acme-demo/workspaces/demo-app')).data.id}/runs${filter}`);

  test('--public-url sets the origin of every absolute URL handed out', async () => {
    const runs = await demoAppRuns();
    const plan = await get(`/runs/${runs.data[0].id}/plan`);
    assert.match(plan.data.attributes['log-read-url'], /^https:\/\/tfe\.example\.test:8443\//);
  });

  test('X-Forwarded-Proto and -Host from a loopback proxy are honoured without --public-url', async () => {
    const plain = await startEmulator({ clock: 'manual' });
    try {
      const headers = { Authorization: `Bearer ${plain.tokens.owner}`, 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'proxy.test:9443' };
      const workspace = (await (await fetch(`${plain.url}/api/v2/organizations/acme-demo/workspaces/demo-app`, { headers })).json()) as any;
      const runs = (await (await fetch(`${plain.url}/api/v2/workspaces/${workspace.data.id}/runs`, { headers })).json()) as any;
      const plan = (await (await fetch(`${plain.url}/api/v2/runs/${runs.data[0].id}/plan`, { headers })).json()) as any;
      assert.match(plan.data.attributes['log-read-url'], /^https:\/\/proxy\.test:9443\//);
    } finally {
      await plain.close();
    }
  });

  test('the redacted plan JSON is served directly, with the schemas the CLI renders from', async () => {
    const runs = await demoAppRuns('?filter[status]=applied');
    const plan = await get(`/runs/${runs.data[0].id}/plan`);
    const response = await fetch(`${emulator.url}/api/v2/plans/${plan.data.id}/json-output-redacted`, { headers: { Authorization: `Bearer ${emulator.tokens.owner}` } });
    assert.equal(response.status, 200);
    const document = (await response.json()) as any;
    assert.equal(document.plan_format_version, '1.2');
    assert.ok(document.resource_changes.length > 0);
    for (const change of document.resource_changes) {
      const schemas = document.provider_schemas[change.provider_name].resource_schemas;
      assert.ok(schemas[change.type], `no schema for ${change.type}`);
    }
    const pending = await demoAppRuns('?filter[status]=pending');
    const pendingPlan = await get(`/runs/${pending.data[0].id}/plan`);
    const early = await fetch(`${emulator.url}/api/v2/plans/${pendingPlan.data.id}/json-output-redacted`, { headers: { Authorization: `Bearer ${emulator.tokens.owner}` } });
    assert.equal(early.status, 204);
  });
});

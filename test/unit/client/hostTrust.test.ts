// The VS Code side of workspace trust: a modal (the server's question), remembered per workspace once trusted.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { trustButton, trustHostHandler, userAddress } from '../../../client/src/auth/hostTrust';

const memory = () => {
  const values = new Map<string, unknown>();
  return { get: <T>(key: string, fallback: T) => (values.has(key) ? (values.get(key) as T) : fallback), update: async (key: string, value: unknown) => void values.set(key, value) };
};
const params = { hostname: 'tfe.evil.example', address: 'https://tfe.evil.example', message: 'This workspace names the service https://tfe.evil.example…' };

describe('trusting a host the workspace names (VS Code modal)', () => {
  test('asks with a modal; trusted once, it is not asked again in this workspace', async () => {
    const asked: string[][] = [];
    const handler = trustHostHandler(memory(), async (message, detail, ...buttons) => {
      asked.push([message, detail, ...buttons]);
      return trustButton;
    });
    assert.deepEqual(await handler(params), { trusted: true });
    assert.deepEqual(await handler(params), { trusted: true });
    assert.equal(asked.length, 1);
    assert.match(asked[0]![0]!, /^HCP Terraform: This workspace names the service https:\/\/tfe\.evil\.example/);
    assert.match(asked[0]![1]!, /carry your API token for tfe\.evil\.example/);
    assert.deepEqual(asked[0]!.slice(2), [trustButton]);
  });

  test('dismissed: not trusted, and asked again next time (a refusal is not remembered)', async () => {
    let count = 0;
    const handler = trustHostHandler(memory(), async () => {
      count += 1;
      return undefined;
    });
    assert.deepEqual(await handler(params), { trusted: false });
    assert.deepEqual(await handler(params), { trusted: false });
    assert.equal(count, 2);
  });

  test("the user's address is the user-level setting, never the workspace's", () => {
    assert.equal(userAddress({ globalValue: 'https://tfe.corp.example' }, 'https://app.terraform.io'), 'https://tfe.corp.example');
    assert.equal(userAddress({ globalValue: undefined, workspaceValue: 'http://evil' } as { globalValue?: unknown }, 'https://app.terraform.io'), 'https://app.terraform.io');
  });
});

// Shared by the in-host test files: the extension under test, the demo emulator, and waiting on events with a bound.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../client/src/extension';

export const extensionId = 'hcp-terraform-runs.hcp-terraform-runs';

export function extension(): vscode.Extension<ExtensionApi> {
  const found = vscode.extensions.getExtension<ExtensionApi>(extensionId);
  assert.ok(found, `extension ${extensionId} is not installed in this host`);
  return found;
}

export function languageClient() {
  const client = extension().exports.languageClient();
  assert.ok(client, 'the language client was not created');
  return client;
}

export interface EmulatorInfo {
  url: string;
  organization: string;
  tokens: Record<'owner' | 'member' | 'reader' | 'team' | 'organization', string>;
}

/** The emulator the runner started for this scenario (its --info file). */
export function emulatorInfo(): EmulatorInfo {
  const file = process.env.HCP_E2E_EMULATOR_INFO;
  assert.ok(file, 'HCP_E2E_EMULATOR_INFO is not set: this test needs the demo scenario');
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** GET on the emulator's API as the owner, to check what the extension did. */
export async function emulatorGet(path: string): Promise<any> {
  const info = emulatorInfo();
  const response = await fetch(`${info.url}/api/v2${path}`, { headers: { Authorization: `Bearer ${info.tokens.owner}` } });
  assert.equal(response.status, 200, `GET ${path} answered ${response.status}`);
  return response.json();
}

/**
 * Resolves with the first value `check` returns that is not undefined: checked now, then each time `event` fires.
 * Rejects after `timeoutMs` with the description. No polling on timers: the event drives it.
 */
export function waitFor<T>(
  description: string,
  event: (listener: () => void) => { dispose(): void },
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const finish = (outcome: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      subscription.dispose();
      outcome();
    };
    const attempt = async () => {
      try {
        const value = await check();
        if (value !== undefined) finish(() => resolve(value));
      } catch (error) {
        finish(() => reject(error));
      }
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${description}`))), timeoutMs);
    const subscription = event(() => void attempt());
    void attempt();
  });
}

// VS Code's answer to hcpTerraform/trustHost: a modal before a token goes to a host this workspace named (not the
// user), remembered per workspace once trusted so it is asked once. A refusal is not remembered: the next window
// asks again rather than leaving the user locked out without a way back. No vscode import (unit-tested).
import type { TrustHostParams } from '../../../server/src/protocol';

export interface TrustMemory {
  get<T>(key: string, defaultValue: T): T;
  update(key: string, value: unknown): Thenable<void>;
}

/** prompts.modal: the chosen button, undefined when dismissed. */
export type Modal = (message: string, detail: string, ...buttons: string[]) => Thenable<string | undefined>;

export const trustButton = 'Trust and Connect';
const memoryKey = 'hcpTerraform.trustedHosts';

/** The user's own address: the user-level setting, else the default; a workspace's value is not theirs. */
export function userAddress(inspected: { globalValue?: unknown } | undefined, fallback: string): string {
  const value = inspected?.globalValue;
  return typeof value === 'string' && value.trim() ? value.trim() : fallback;
}

export function trustHostHandler(memory: TrustMemory, modal: Modal): (params: TrustHostParams) => Promise<{ trusted: boolean }> {
  return async (params) => {
    const host = String(params?.hostname ?? '').toLowerCase();
    const address = String(params?.address ?? '');
    if (!host || !address) return { trusted: false };
    const trusted = memory.get<string[]>(memoryKey, []);
    if (trusted.includes(address)) return { trusted: true };
    const detail = `Only trust it if you know this repository. Requests to ${address} will carry your API token for ${host}; otherwise nothing is sent there.`;
    const choice = await modal(`HCP Terraform: ${params.message}`, detail, trustButton);
    if (choice !== trustButton) return { trusted: false };
    await memory.update(memoryKey, [...new Set([...trusted, address])]);
    return { trusted: true };
  };
}

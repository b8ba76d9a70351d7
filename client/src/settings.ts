import * as vscode from 'vscode';
import { userAddress } from './auth/hostTrust';

export const defaultAddress = 'https://app.terraform.io';

/**
 * The configured service address, checked: a malformed value falls back to the default with a message that says
 * what to fix, rather than failing later with an obscure network error. Credentials in the URL are refused (a token
 * belongs in Sign In) and never quoted back.
 */
export function configuredAddress(onInvalid: (message: string) => void): string {
  return checkedAddress(vscode.workspace.getConfiguration('hcpTerraform').get<string>('address', defaultAddress), onInvalid);
}

/**
 * The address the USER configured (user settings, else the default), never a workspace's .vscode/settings.json:
 * the server trusts this one; an address the workspace sets is asked about before a token goes there.
 */
export function userConfiguredAddress(): string {
  return checkedAddress(userAddress(vscode.workspace.getConfiguration('hcpTerraform').inspect<string>('address'), defaultAddress), () => undefined);
}

function checkedAddress(value: string, onInvalid: (message: string) => void): string {
  const raw = value.trim();
  const shown = raw.replace(/\/\/[^/@\s]*@/, '//[redacted]@');
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('not http(s)');
    if (url.username || url.password) {
      onInvalid(`The setting hcpTerraform.address ("${shown}") contains credentials; remove them and use HCP Terraform: Sign In. Using ${defaultAddress}.`);
      return defaultAddress;
    }
    return url.origin;
  } catch {
    onInvalid(`The setting hcpTerraform.address ("${shown}") is not a valid http(s) URL; using ${defaultAddress}. Fix it in Settings.`);
    return defaultAddress;
  }
}

// Where a host's token may be sent: to that host over https, and over plain http only when the host is this machine
// (the emulator). A token is given for a host as Terraform names it (`tfe.example.com:8443`), which means the origin
// https://<host>; any other scheme or host is another origin and never gets it, whatever an address setting says.
import { comparableHost } from './tokens';

/** localhost, 127.0.0.0/8 and ::1, with or without a port: traffic that never leaves the machine. */
export function isLoopbackHost(host: string): boolean {
  const name = comparableHost(host).replace(/:\d+$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(name) || name === '[::1]';
}

/**
 * Why the token of `host` must not go to `address`; undefined when it may. The sentence says what to change and
 * never contains a token.
 */
export function tokenOriginProblem(host: string, address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return `"${address}" is not a service address, so no token is sent to it.`;
  }
  const key = comparableHost(host);
  if (comparableHost(url.host) !== key) return `${url.origin} is not ${key}: a token for ${key} is only sent to ${key} itself.`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(key)) return undefined;
  return `${url.origin} is plain ${url.protocol.replace(':', '')}://, so the token for ${key} is not sent there (tokens go over https; http:// only to this machine). Use https://${key} in hcpTerraform.address.`;
}

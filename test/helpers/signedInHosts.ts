// The server's service hosts signed in to one address with one token (as initializationOptions would sign them in),
// on a test's clock, and no credentials file or TF_TOKEN_ variable to find another.
import { TokenResolver } from '../../server/src/auth/tokens';
import { ServiceHosts, type ServiceHostsOptions } from '../../server/src/workspaces/hosts';
import type { Timers } from '../../server/src/workspaces/timers';

export function signedInHosts(address: string, token: string, timers: Timers, options: Omit<ServiceHostsOptions, 'tokens' | 'timers'> = {}): { tokens: TokenResolver; hosts: ServiceHosts } {
  const tokens = new TokenResolver({ environment: {}, homeDirectory: '/nonexistent' });
  const hosts = new ServiceHosts({ ...options, tokens, timers });
  hosts.setConfiguredAddress(address);
  tokens.setClientToken(hosts.configuredHost, token);
  return { tokens, hosts };
}

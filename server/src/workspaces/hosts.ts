// One ServiceClient per service host, built with that host's token only (so a token never reaches another host).
// A host is `app.terraform.io` or `tfe.example.com:8443`; its address is https://<host>, except the configured
// address's own host, which keeps the configured scheme and path (http:// for a local emulator). A token is only
// handed to a client whose address is its own origin (https, or http on loopback: auth/origins.ts), and, for a host
// the workspace named rather than the user, only once the user trusted it (auth/addressTrust.ts).
import { ServiceClient } from '../api';
import { trustedCertificates } from '../api/trustedCertificates';
import type { HttpExchangeRecord, RequestWait } from '../api';
import type { ResolvedToken, TokenResolver } from '../auth/tokens';
import { comparableHost } from '../auth/tokens';
import { AddressTrust } from '../auth/addressTrust';
import { tokenOriginProblem } from '../auth/origins';
import { tokenCharacterProblem } from '../auth/tokenCharacters';
import { defaultAddress, hostOfAddress } from '../config/settings';
import type { Timers } from './timers';

export interface ServiceHostsOptions {
  tokens: TokenResolver;
  timers: Timers;
  onExchange?: (record: HttpExchangeRecord) => void;
  /** Hosts the workspace named must be trusted before their token is used; without it every host is. */
  trust?: AddressTrust;
  /** A request of `host` waits before going out (rate limit, retry backoff): see waitNotices.ts. */
  onWait?: (host: string, wait: RequestWait) => void;
}

interface HostEntry {
  token: string;
  address: string;
  client: ServiceClient;
}

export class ServiceHosts {
  private configured = defaultAddress;
  private readonly entries = new Map<string, HostEntry>();
  /** The token each host last answered 401 to: not signed in while it is still the token in use. */
  private readonly refused = new Map<string, string>();

  private ca: string[] | undefined;
  private caFile: string | undefined;

  constructor(private readonly options: ServiceHostsOptions) {}

  /** The certificate authorities clients trust (undefined = Node's defaults). */
  get trustedCa(): string[] | undefined {
    return this.ca;
  }

  /**
   * Trusts a private CA (hcpTerraform.tls.caFile) for every host from now on; clients are rebuilt. A file that
   * cannot be used is reported through `warn` and the defaults stay.
   */
  setCaFile(caFile: string | undefined, warn: (message: string) => void): void {
    if (caFile === this.caFile) return;
    this.caFile = caFile;
    try {
      this.ca = trustedCertificates(caFile);
    } catch (error) {
      this.ca = undefined;
      warn(error instanceof Error ? error.message : String(error));
    }
    for (const [key, entry] of [...this.entries]) {
      this.entries.delete(key);
      void entry.client.close().catch(() => undefined);
    }
  }

  get configuredAddress(): string {
    return this.configured;
  }

  get configuredHost(): string {
    return hostOfAddress(this.configured);
  }

  setConfiguredAddress(address: string | undefined): boolean {
    const next = address ?? defaultAddress;
    if (next === this.configured) return false;
    this.configured = next;
    this.refreshAll();
    return true;
  }

  /** The address requests to `host` go to. */
  addressFor(host: string): string {
    const key = comparableHost(host);
    return key === this.configuredHost ? this.configured : `https://${key}`;
  }

  token(host: string): ResolvedToken | undefined {
    return this.options.tokens.resolve(comparableHost(host));
  }

  isSignedIn(host: string): boolean {
    const key = comparableHost(host);
    const resolved = this.token(key);
    return resolved !== undefined && this.refused.get(key) !== resolved.token && this.blocked(key) === undefined;
  }

  /**
   * Why the token known for `host` is not used (its address is another origin, or the host waits for or lacks the
   * user's trust; asking once if nobody was asked yet); undefined when it is used or there is none.
   */
  blocked(host: string): string | undefined {
    const key = comparableHost(host);
    if (!this.token(key)) return undefined;
    const problem = this.tokenProblem(key);
    if (problem) return problem;
    const decision = this.options.trust?.check(key) ?? 'trusted';
    return decision === 'trusted' ? undefined : AddressTrust.describe(key, decision);
  }

  /**
   * Why the token known for `host` cannot be sent, whatever the user's trust: a character no token has, or an address
   * it must not go to. Undefined when it can (or there is none). The user has to fix these: they are told.
   */
  tokenProblem(host: string): string | undefined {
    const key = comparableHost(host);
    const token = this.token(key);
    if (!token) return undefined;
    return tokenCharacterProblem(key, token) ?? tokenOriginProblem(key, this.addressFor(key));
  }

  /** The client for `host`, or undefined when no token is known for it. Rebuilt when the token changed. */
  clientFor(host: string): ServiceClient | undefined {
    const key = comparableHost(host);
    const resolved = this.token(key);
    const existing = this.entries.get(key);
    if (existing && existing.token === resolved?.token && existing.address === this.addressFor(key)) return existing.client;
    if (existing) {
      this.entries.delete(key);
      void existing.client.close().catch(() => undefined);
    }
    if (!resolved || this.blocked(key) !== undefined) return undefined;
    const address = this.addressFor(key);
    const client = new ServiceClient({
      address,
      token: resolved.token,
      clock: this.options.timers,
      onExchange: (record) => {
        // Only the service's own paths carry the token (other origins are logged by origin alone).
        if (record.target.startsWith('/') && record.status === 401) this.refused.set(key, resolved.token);
        else if (record.target.startsWith('/') && record.status !== undefined && record.status < 400 && this.refused.get(key) === resolved.token) this.refused.delete(key);
        this.options.onExchange?.(record);
      },
      ...(this.options.onWait ? { onWait: (wait: RequestWait) => this.options.onWait?.(key, wait) } : {}),
      ...(this.ca ? { ca: this.ca } : {}),
    });
    this.entries.set(key, { token: resolved.token, address, client });
    return client;
  }

  /** Drops clients whose token or address changed; the next clientFor builds fresh ones. */
  refreshAll(): void {
    for (const [key, entry] of [...this.entries]) {
      const resolved = this.token(key);
      if (resolved?.token !== entry.token || entry.address !== this.addressFor(key)) {
        this.entries.delete(key);
        void entry.client.close().catch(() => undefined);
      }
    }
  }

  /** At shutdown: every client closes at once, failing what is in flight (nothing waits for an unanswering service). */
  async dispose(): Promise<void> {
    const clients = [...this.entries.values()].map((entry) => entry.client);
    this.entries.clear();
    await Promise.all(clients.map((client) => client.destroy().catch(() => undefined)));
  }
}

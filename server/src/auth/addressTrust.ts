// Workspace trust for service hosts: a repository (its .vscode/settings.json, a `cloud` block, hcpTerraform.workspace)
// can name any host, and a token found for that host (TF_TOKEN_*, the credentials file) would go there unasked. So a
// host is trusted when the user named it (the address the client started with, the default, a host the user signed
// in to) and any other is asked about once, before any token goes there; a refusal holds for the session.

export type TrustDecision = 'trusted' | 'declined' | 'asking';

export interface AddressTrustOptions {
  /** Asks the user (a modal in VS Code, window/showMessageRequest elsewhere); resolves true to trust. */
  ask: (host: string) => Promise<boolean>;
  /** The answer arrived: whatever waited on the host can be read again. */
  onDecided: (host: string, trusted: boolean) => void;
  log: (message: string) => void;
}

export class AddressTrust {
  private readonly decisions = new Map<string, TrustDecision>();

  constructor(private readonly options: AddressTrustOptions) {}

  /** The user named this host (their own address, a sign-in): no question. */
  trust(host: string): void {
    this.decisions.set(host, 'trusted');
  }

  /** trusted: tokens may go there now; otherwise the question is asked once (asking) or was refused (declined). */
  check(host: string): TrustDecision {
    const known = this.decisions.get(host);
    if (known) return known;
    this.decisions.set(host, 'asking');
    this.options
      .ask(host)
      .catch((error: unknown) => {
        // A client that cannot answer is a refusal: no token goes to a host nobody agreed to.
        this.options.log(`Could not ask whether to trust ${host} (${error instanceof Error ? error.message : String(error)}); no token is sent there.`);
        return false;
      })
      .then((trusted) => {
        if (this.decisions.get(host) !== 'asking') return; // the user signed in there meanwhile
        this.decisions.set(host, trusted ? 'trusted' : 'declined');
        this.options.onDecided(host, trusted);
      });
    return 'asking';
  }

  /** What a view shows while a host is not trusted. */
  static describe(host: string, decision: TrustDecision): string {
    return decision === 'asking'
      ? `Waiting for you to trust ${host}, which this workspace names: no token is sent there until you answer.`
      : `You did not trust ${host}, which this workspace names, so no token is sent there. Reload the window (or restart the language server) to be asked again.`;
  }
}

import * as vscode from 'vscode';
import { validateTokenRequest } from '../../../server/src/protocol';
import type { ClientDeps } from '../clientDeps';
import { hostOf } from '../credentials';
import { log } from '../log';
import { errorMessage } from '../serverAccess';
import { signIn } from '../signIn';
import { accountLabel } from './accountLabel';
import { registerSignInPrompt } from './signInPrompt';

export const authenticationProviderId = 'hcpTerraform';

/**
 * The Accounts menu's face of Credentials: one session per host whose token is stored, labelled with who the token
 * is. Credentials stays the storage (SecretStorage for tokens, globalState for hosts and identities); this provider
 * only reads it, signs in through the same flow as the Sign In command, and signs out by deleting the host's token,
 * which Credentials.onDidChange passes on to the server (so the views clear at once).
 */
class HcpTerraformAuthenticationProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.changed.event;
  /** The last session handed out per host, so a sign-out can name the session it removed. */
  private readonly known = new Map<string, vscode.AuthenticationSession>();
  /** Hosts whose identity was already asked for lazily this session (one try each, never a loop). */
  private readonly identityAsked = new Set<string>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly deps: ClientDeps) {
    this.subscription = deps.credentials.onDidChange(({ host, token }) => this.credentialsChanged(host, token));
  }

  async getSessions(_scopes?: readonly string[], options?: vscode.AuthenticationProviderSessionOptions): Promise<vscode.AuthenticationSession[]> {
    const sessions: vscode.AuthenticationSession[] = [];
    for (const host of this.deps.credentials.hosts()) {
      const token = await this.deps.credentials.get(host);
      if (!token) continue;
      if (options?.account && options.account.id !== host) continue;
      if (!this.deps.credentials.identity(host)) void this.learnIdentity(host, token);
      sessions.push(this.session(host, token));
    }
    return sessions;
  }

  async createSession(): Promise<vscode.AuthenticationSession> {
    const host = hostOf(this.deps.address());
    const outcome = await signIn(this.deps, host);
    if (outcome.kind === 'cancelled') throw new Error(`Sign-in to ${host} was cancelled.`);
    if (outcome.kind === 'failed') throw new Error(outcome.message);
    const token = await this.deps.credentials.get(host);
    if (!token) throw new Error(`Signed in to ${host}, but its token could not be read back from the secret storage.`);
    return this.session(host, token);
  }

  async removeSession(sessionId: string): Promise<void> {
    // Session ids are host names; deleting fires Credentials.onDidChange, which reports the removal below.
    if (this.deps.credentials.hosts().includes(sessionId)) await this.deps.credentials.delete(sessionId);
  }

  private session(host: string, token: string): vscode.AuthenticationSession {
    const session: vscode.AuthenticationSession = {
      id: host,
      accessToken: token,
      account: { id: host, label: accountLabel(host, this.deps.credentials.identity(host)) },
      scopes: [],
    };
    this.known.set(host, session);
    return session;
  }

  private credentialsChanged(host: string, token: string | undefined): void {
    const previous = this.known.get(host);
    if (token === undefined) {
      this.known.delete(host);
      this.identityAsked.delete(host);
      if (previous) this.changed.fire({ added: [], removed: [previous], changed: [] });
      return;
    }
    const session = this.session(host, token);
    this.changed.fire(previous ? { added: [], removed: [], changed: [session] } : { added: [session], removed: [], changed: [] });
  }

  /** A token stored before identities were kept (or by an older version): ask the service who it is, once. */
  private async learnIdentity(host: string, token: string): Promise<void> {
    if (this.identityAsked.has(host) || !this.deps.server.running) return;
    this.identityAsked.add(host);
    try {
      const identity = await this.deps.server.request(validateTokenRequest, { hostname: host, token });
      if ((await this.deps.credentials.get(host)) !== token) return; // signed in again meanwhile: that one wins
      await this.deps.credentials.setIdentity(host, identity);
      this.changed.fire({ added: [], removed: [], changed: [this.session(host, token)] });
    } catch (error) {
      log.warn(`Could not learn who the stored token of ${host} belongs to: ${errorMessage(error)}`);
    }
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

/** The authentication provider (Accounts menu) and the one-per-host offer to sign in when the server needs a token. */
export function registerAuthentication(context: vscode.ExtensionContext, deps: ClientDeps): void {
  const provider = new HcpTerraformAuthenticationProvider(deps);
  context.subscriptions.push(
    provider,
    vscode.authentication.registerAuthenticationProvider(authenticationProviderId, 'HCP Terraform', provider, { supportsMultipleAccounts: true }),
  );
  registerSignInPrompt(context, deps);
}

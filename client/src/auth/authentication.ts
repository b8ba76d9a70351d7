import * as vscode from 'vscode';
import type { ClientDeps } from '../clientDeps';
import { hostOf } from '../credentials';
import { log } from '../log';
import { signIn, signOut } from '../signIn';
import { accountLabel, Identities } from './identities';

/**
 * The HCP Terraform accounts in VS Code's Accounts menu: one session per host, kept in SecretStorage (Credentials),
 * signed out from there as well. A session's scopes may name the host (`host:tfe.example.com`); none = the
 * configured address's host.
 */
export class HcpAuthenticationProvider implements vscode.AuthenticationProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.AuthenticationProviderAuthenticationSessionsChangeEvent>();
  readonly onDidChangeSessions = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly deps: ClientDeps,
    readonly identities: Identities,
  ) {
    this.subscription = deps.credentials.onDidChange(async ({ host, token }) => {
      const session = token ? this.session(host, token) : { id: host, accessToken: '', account: { id: host, label: host }, scopes: [] };
      this.changed.fire(token ? { added: [session], removed: [], changed: [] } : { added: [], removed: [session], changed: [] });
    });
  }

  async getSessions(scopes?: readonly string[]): Promise<vscode.AuthenticationSession[]> {
    const wanted = hostOfScopes(scopes);
    const sessions: vscode.AuthenticationSession[] = [];
    for (const { host, token } of await this.deps.credentials.all()) if (!wanted || wanted === host) sessions.push(this.session(host, token));
    return sessions;
  }

  async createSession(scopes: readonly string[]): Promise<vscode.AuthenticationSession> {
    const host = hostOfScopes(scopes) ?? hostOf(this.deps.address());
    const result = await signIn(this.deps, this.identities, host);
    if (!result) throw new Error(`Sign-in to ${host} was cancelled.`);
    return this.session(result.host, result.token);
  }

  async removeSession(sessionId: string): Promise<void> {
    await signOut(this.deps, this.identities, sessionId);
  }

  private session(host: string, token: string): vscode.AuthenticationSession {
    const identity = this.identities.get(host);
    return { id: host, accessToken: token, account: { id: identity ? `${host}/${identity.id}` : host, label: accountLabel(host, identity) }, scopes: [`host:${host}`] };
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}

function hostOfScopes(scopes: readonly string[] | undefined): string | undefined {
  const scope = scopes?.find((s) => s.startsWith('host:'));
  return scope ? scope.slice('host:'.length).toLowerCase() : undefined;
}

/** Registers the provider and returns it (the Sign In / Sign Out commands use its identities). */
export function registerAuthentication(context: vscode.ExtensionContext, deps: ClientDeps): HcpAuthenticationProvider {
  const provider = new HcpAuthenticationProvider(deps, new Identities(context.globalState));
  context.subscriptions.push(provider);
  try {
    context.subscriptions.push(vscode.authentication.registerAuthenticationProvider('hcpTerraform', 'HCP Terraform', provider, { supportsMultipleAccounts: true }));
  } catch (error) {
    log.warn(`The HCP Terraform accounts could not be added to the Accounts menu: ${error instanceof Error ? error.message : String(error)}`);
  }
  return provider;
}

// The Organization view: every host the extension knows (the configured address's and each signed-in one, each with
// its own account), and under a signed-in host its selected organization: the subscription (plan, active, dates),
// limits and quotas, each feature on or off, and whether an organization token exists with its dates.
import * as vscode from 'vscode';
import type { OrganizationTokenStatus, SubscriptionResult } from '../../../server/src/protocol';
import { accountIdentityRequest, linkedWorkspacesRequest, organizationTokenStatusRequest, serverStatusRequest, subscriptionRequest } from '../../../server/src/protocol';
import type { ClientDeps } from '../clientDeps';
import { hostOf } from '../credentials';
import { log } from '../log';
import { errorMessage } from '../serverAccess';
import { featureRows, limitRows, subscriptionRows, tokenRows, type Row } from './subscriptionPresentation';

export interface OrganizationRef {
  hostname: string;
  organization: string;
}

export type OrganizationNode =
  /** `host` too: Sign In and Sign Out take `{ host }`. */
  | { kind: 'host'; hostname: string; host: string; signedIn: boolean; account?: string; configured: boolean }
  | { kind: 'organization'; hostname: string; organization: string }
  | { kind: 'section'; section: 'subscription' | 'limits' | 'features' | 'token'; hostname: string; organization: string }
  | { kind: 'row'; row: Row; contextValue?: string; hostname: string; organization: string }
  | { kind: 'message'; text: string; icon?: string; command?: vscode.Command };

const sectionLabels = { subscription: 'Subscription', limits: 'Limits and quotas', features: 'Features', token: 'Organization token' } as const;

export class OrganizationTree implements vscode.TreeDataProvider<OrganizationNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<OrganizationNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions = new Map<string, Promise<SubscriptionResult>>();
  /** Who the server's own token is, per host the editor holds no token for (TF_TOKEN_…, `terraform login`). */
  private readonly serverAccounts = new Map<string, Promise<string | undefined>>();
  private readonly disposables: vscode.Disposable[];

  constructor(
    private readonly deps: ClientDeps,
    private readonly selected: () => OrganizationRef | undefined,
  ) {
    this.disposables = [deps.server.onDidStart(() => this.refresh()), deps.credentials.onDidChange(() => this.refresh())];
  }

  refresh(): void {
    this.subscriptions.clear();
    this.serverAccounts.clear();
    this.changed.fire(undefined);
  }

  getTreeItem(node: OrganizationNode): vscode.TreeItem {
    switch (node.kind) {
      case 'host': {
        const item = new vscode.TreeItem(node.hostname, node.signedIn ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
        item.id = `host/${node.hostname}`;
        item.description = [node.signedIn ? (node.account ?? 'signed in') : 'signed out', node.configured ? 'configured address' : undefined].filter(Boolean).join(' · ');
        item.iconPath = new vscode.ThemeIcon(node.signedIn ? 'account' : 'circle-slash');
        item.contextValue = `hcpHost ${node.signedIn ? 'signedIn' : 'signedOut'}`;
        if (!node.signedIn) item.command = { command: 'hcpTerraform.signIn', title: 'Sign In', arguments: [{ host: node.hostname }] };
        return item;
      }
      case 'organization': {
        const item = new vscode.TreeItem(node.organization, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `org/${node.hostname}/${node.organization}`;
        item.description = 'organization';
        item.iconPath = new vscode.ThemeIcon('organization');
        item.contextValue = 'hcpOrganization';
        return item;
      }
      case 'section': {
        const open = node.section === 'subscription' || node.section === 'token';
        const item = new vscode.TreeItem(sectionLabels[node.section], open ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `section/${node.hostname}/${node.organization}/${node.section}`;
        item.contextValue = `hcpOrgSection ${node.section}`;
        return item;
      }
      case 'row': {
        const item = new vscode.TreeItem(node.row.label, vscode.TreeItemCollapsibleState.None);
        if (node.row.description) item.description = node.row.description;
        if (node.row.description) item.tooltip = `${node.row.label}: ${node.row.description}`;
        if (node.row.icon) item.iconPath = new vscode.ThemeIcon(node.row.icon);
        item.contextValue = node.contextValue ?? 'hcpOrgRow';
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        if (node.icon) item.iconPath = new vscode.ThemeIcon(node.icon);
        if (node.command) item.command = node.command;
        item.contextValue = 'hcpMessage';
        return item;
      }
    }
  }

  async getChildren(node?: OrganizationNode): Promise<OrganizationNode[]> {
    try {
      if (!node) {
        // Signed in nowhere: an empty tree lets the view's welcome offer Sign In.
        const hosts = await this.hosts();
        return hosts.some((host) => host.signedIn) ? hosts : [];
      }
      if (node.kind === 'host') return node.signedIn ? await this.organizationsOf(node.hostname) : [];
      if (node.kind === 'organization') return (['subscription', 'limits', 'features', 'token'] as const).map((section) => ({ kind: 'section', section, hostname: node.hostname, organization: node.organization }));
      if (node.kind === 'section') return await this.sectionRows(node);
      return [];
    } catch (error) {
      log.warn(`Organization view: ${errorMessage(error)}`);
      return [{ kind: 'message', text: `Could not load: ${errorMessage(error)}`, icon: 'warning' }];
    }
  }

  /** The configured address's host first, then every host with a stored token. */
  async hosts(): Promise<Array<Extract<OrganizationNode, { kind: 'host' }>>> {
    const configured = hostOf(this.deps.address());
    const stored = this.deps.credentials.hosts();
    const configuredSignedIn = stored.includes(configured) || (this.deps.server.running && (await this.deps.server.request(serverStatusRequest).then((s) => s.signedIn, () => false)));
    return Promise.all(
      [...new Set([configured, ...stored])].map(async (hostname) => {
        const signedIn = hostname === configured ? configuredSignedIn : true;
        const account = this.deps.credentials.identity(hostname)?.name ?? (signedIn ? await this.serverAccount(hostname) : undefined);
        return { kind: 'host' as const, hostname, host: hostname, signedIn, configured: hostname === configured, ...(account ? { account } : {}) };
      }),
    );
  }

  /** The account name of the server's own token for a host (one GET /account/details per refresh); none if unreadable. */
  private serverAccount(hostname: string): Promise<string | undefined> {
    if (!this.deps.server.running) return Promise.resolve(undefined);
    let account = this.serverAccounts.get(hostname);
    if (!account) {
      account = this.deps.server.request(accountIdentityRequest, { hostname }).then(
        (identity) => identity?.name,
        () => undefined,
      );
      this.serverAccounts.set(hostname, account);
    }
    return account;
  }

  /** The selected organization when it is on this host, else the one linked folders use there, else a way to pick one. */
  private async organizationsOf(hostname: string): Promise<OrganizationNode[]> {
    const selected = this.selected();
    if (selected?.hostname === hostname) return [{ kind: 'organization', hostname, organization: selected.organization }];
    const folders = this.deps.server.running ? await this.deps.server.request(linkedWorkspacesRequest) : [];
    const linked = [...new Set(folders.flatMap((f) => (f.state.kind === 'linked' && f.state.workspace.hostname === hostname ? [f.state.workspace.organization] : [])))];
    if (linked.length > 0) return linked.map((organization) => ({ kind: 'organization' as const, hostname, organization }));
    return [{ kind: 'message', text: 'Select Organization…', icon: 'organization', command: { command: 'hcpTerraform.selectOrganization', title: 'Select Organization', arguments: [{ hostname }] } }];
  }

  /** The subscription of an organization, read once until the next refresh. */
  subscription(ref: OrganizationRef): Promise<SubscriptionResult> {
    const key = `${ref.hostname}/${ref.organization}`;
    let pending = this.subscriptions.get(key);
    if (!pending) {
      pending = this.deps.server.request(subscriptionRequest, ref);
      pending.catch(() => this.subscriptions.delete(key));
      this.subscriptions.set(key, pending);
    }
    return pending;
  }

  tokenStatus(ref: OrganizationRef): Promise<OrganizationTokenStatus> {
    return this.deps.server.request(organizationTokenStatusRequest, ref);
  }

  private async sectionRows(node: Extract<OrganizationNode, { kind: 'section' }>): Promise<OrganizationNode[]> {
    const ref = { hostname: node.hostname, organization: node.organization };
    const rows = (list: Row[], contextValue?: string): OrganizationNode[] => list.map((row) => ({ kind: 'row', row, hostname: node.hostname, organization: node.organization, ...(contextValue ? { contextValue } : {}) }));
    if (node.section === 'token') {
      const status = await this.tokenStatus(ref);
      return rows(tokenRows(status), `hcpOrgToken ${status.exists ? 'exists' : 'none'}`);
    }
    const result = await this.subscription(ref);
    if (!result.available) {
      // Terraform Enterprise has no subscription interface: say so once, under Subscription, and nothing else.
      return node.section === 'subscription' ? [{ kind: 'message', text: result.edition === 'enterprise' ? 'Not available on this edition' : 'Not available', icon: 'info', command: { command: 'hcpTerraform.showSubscription', title: 'Why', arguments: [ref] } }, ...rows([{ label: result.reason }])] : [];
    }
    if (node.section === 'subscription') return rows(subscriptionRows(result));
    if (node.section === 'limits') return rows(limitRows(result));
    return rows(featureRows(result), 'hcpOrgFeature');
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
    this.changed.dispose();
  }
}

import * as vscode from 'vscode';
import { linkedWorkspacesRequest, organizationsRequest, watchWorkspacesNotification, workspacesRequest } from '../../../server/src/protocol';
import type { ClientDeps } from '../clientDeps';
import { registerCommands } from '../commands';
import { hostOf } from '../credentials';
import { log } from '../log';
import { errorMessage } from '../serverAccess';
import { prompts } from '../userPrompts';
import type { LoadMoreNode, WorkspaceRef } from './model';
import { workspaceRefOf } from './model';
import { PinnedWorkspaces } from './tree/pins';
import { describeFilters, isFiltered, pickFilters } from './tree/runFilters';
import { RunsTreeProvider } from './tree/runsTreeProvider';

/** Where the selected organization is kept (the Organization view's Select Organization writes it). */
export const organizationKey = 'hcpTerraform.selectedOrganization';

/** The Runs view and the commands of its title bar and workspace items. Returns the provider (tests read it). */
export function registerRunsView(context: vscode.ExtensionContext, deps: ClientDeps): RunsTreeProvider {
  const pins = new PinnedWorkspaces(context.workspaceState);
  const provider = new RunsTreeProvider(deps, pins);
  const view = vscode.window.createTreeView('hcpTerraform.runs', { treeDataProvider: provider, showCollapseAll: true });
  context.subscriptions.push(provider, view);

  const showFilters = () => {
    view.message = describeFilters(provider.activeFilters);
    void vscode.commands.executeCommand('setContext', 'hcpTerraform.runFiltersActive', isFiltered(provider.activeFilters));
  };
  /** The server lists pinned workspaces' runs too, so they are as live as linked ones. */
  const watchPins = () => {
    if (!deps.server.running) return;
    const byHost = new Map<string, string[]>();
    for (const pin of pins.all()) byHost.set(pin.hostname, [...(byHost.get(pin.hostname) ?? []), pin.id]);
    for (const hostname of new Set([...byHost.keys(), hostOf(deps.address())])) {
      void deps.server.notify(watchWorkspacesNotification, { hostname, workspaceIds: byHost.get(hostname) ?? [] }).catch((error: unknown) => log.warn(`Could not watch pinned workspaces: ${errorMessage(error)}`));
    }
  };
  context.subscriptions.push(deps.server.onDidStart(watchPins));

  registerCommands(context, {
    'hcpTerraform.refresh': () => provider.refresh(),
    'hcpTerraform.filterRuns': async () => {
      const filters = await pickFilters(provider.activeFilters);
      if (!filters) return;
      provider.setFilters(filters);
      showFilters();
    },
    'hcpTerraform.clearRunFilters': () => {
      provider.setFilters({});
      showFilters();
    },
    'hcpTerraform.loadMoreRuns': async (node: unknown) => {
      if (!isLoadMore(node)) return;
      try {
        await provider.loadMore(node);
      } catch (error) {
        void prompts.error(`HCP Terraform: could not load more runs: ${errorMessage(error)}`);
      }
    },
    'hcpTerraform.pinWorkspace': async () => {
      const workspace = await pickWorkspaceToPin(context, deps, pins);
      if (!workspace) return;
      await pins.pin(workspace);
      watchPins();
      provider.refresh();
      void vscode.window.setStatusBarMessage(`HCP Terraform: pinned ${workspace.organization}/${workspace.name}`, 4_000);
    },
    'hcpTerraform.unpinWorkspace': async (node: unknown) => {
      const workspace = workspaceRefOf(node) ?? (await pickPinned(pins));
      if (!workspace) return;
      await pins.unpin(workspace);
      watchPins();
      provider.refresh();
    },
  });
  return provider;
}

function isLoadMore(value: unknown): value is LoadMoreNode {
  return typeof value === 'object' && value !== null && (value as LoadMoreNode).kind === 'loadMore';
}

/** The organization the pin picker and the palette use: the one selected, else the linked folders' only one, else asked. */
export async function currentOrganization(context: vscode.ExtensionContext, deps: ClientDeps): Promise<{ hostname: string; organization: string } | undefined> {
  const selected = context.workspaceState.get<{ hostname: string; organization: string }>(organizationKey);
  if (selected) return selected;
  const folders = await deps.server.request(linkedWorkspacesRequest);
  const linked = [...new Map(folders.flatMap((f) => (f.state.kind === 'linked' ? [[`${f.state.workspace.hostname}/${f.state.workspace.organization}`, f.state.workspace] as const] : []))).values()];
  if (linked.length === 1) return { hostname: linked[0]!.hostname, organization: linked[0]!.organization };
  const hostname = linked[0]?.hostname ?? hostOf(deps.address());
  const organization = await pickOrganization(deps, hostname);
  return organization ? { hostname, organization } : undefined;
}

export async function pickOrganization(deps: ClientDeps, hostname: string): Promise<string | undefined> {
  let organizations: Array<{ label: string }>;
  try {
    organizations = (await deps.server.request(organizationsRequest, { hostname })).organizations.map((label) => ({ label }));
  } catch (error) {
    void prompts.error(`HCP Terraform: could not list the organizations on ${hostname}: ${errorMessage(error)}`);
    return undefined;
  }
  const picked = await prompts.quickPick(organizations, { title: `Select an organization on ${hostname}`, placeHolder: 'Organization' });
  return picked?.label;
}

async function pickWorkspaceToPin(context: vscode.ExtensionContext, deps: ClientDeps, pins: PinnedWorkspaces): Promise<WorkspaceRef | undefined> {
  const target = await currentOrganization(context, deps);
  if (!target) return undefined;
  let items;
  try {
    const result = await deps.server.request(workspacesRequest, { hostname: target.hostname, organization: target.organization, pageSize: 100 });
    items = result.workspaces.map((workspace) => ({
        label: workspace.name,
        description: [workspace.currentRun?.statusLabel, pins.has(workspace) ? 'pinned' : undefined].filter(Boolean).join(' · '),
        workspace: { id: workspace.id, name: workspace.name, organization: workspace.organization, hostname: workspace.hostname, permissions: workspace.permissions } as WorkspaceRef,
      }));
  } catch (error) {
    void prompts.error(`HCP Terraform: could not list the workspaces of ${target.organization}: ${errorMessage(error)}`);
    return undefined;
  }
  const picked = await prompts.quickPick(items, { title: `Pin a workspace of ${target.organization} to the Runs view`, placeHolder: 'Workspace name', matchOnDescription: true });
  return picked?.workspace;
}

async function pickPinned(pins: PinnedWorkspaces): Promise<WorkspaceRef | undefined> {
  const picked = await prompts.quickPick(
    pins.all().map((workspace) => ({ label: workspace.name, description: workspace.organization, workspace })),
    { title: 'Unpin which workspace?' },
  );
  return picked?.workspace;
}

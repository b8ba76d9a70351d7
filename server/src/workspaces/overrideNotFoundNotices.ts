// The hcpTerraform.workspace setting naming a workspace the service does not have. With a name from the code, the
// workspace-link diagnostic sits on the name; a name from the setting has no line to put it on, so the user heard
// nothing (only hover said it). Told once per host, organization and name, in every LSP client.
import type { ServiceLink } from '../model';
import type { LinkedWorkspaceState } from '../protocol';

export class OverrideNotFoundNotices {
  private readonly told = new Set<string>();

  constructor(private readonly show: (message: string) => void) {}

  /** A folder's link and workspace state, each time they change. */
  update(link: ServiceLink, state: LinkedWorkspaceState | undefined): void {
    if (state?.kind !== 'not-found') return;
    if (link.workspace?.kind !== 'name' || link.workspace.name.source !== 'override') return;
    const key = `${state.hostname}\u0000${state.organization}\u0000${state.name}`;
    if (this.told.has(key)) return;
    this.told.add(key);
    const organizationFrom = link.organization?.source === 'override' ? 'the setting\'s organization' : 'the organization';
    this.show(
      `HCP Terraform: the hcpTerraform.workspace setting names workspace "${state.name}", which organization "${state.organization}" on ${state.hostname} does not have (or this token may not read it). ` +
        `Check hcpTerraform.workspace.name and ${organizationFrom} (terraform workspace list shows the workspaces you can read).`,
    );
  }
}

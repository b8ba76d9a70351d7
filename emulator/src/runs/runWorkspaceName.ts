// `terraform.workspace` for a run's evaluation: the run's workspace name, as HCP Terraform's remote runs give it.
import { remoteRunWorkspaceName } from '../engine/terraformWorkspace';
import type { Store } from '../store/store';
import type { RunRecord } from './model';

export function runWorkspaceName(store: Store, run: Pick<RunRecord, 'workspaceId' | 'engineVersion'>): string | undefined {
  const workspace = store.workspace(run.workspaceId);
  return workspace ? remoteRunWorkspaceName(workspace.name, run.engineVersion) : undefined;
}

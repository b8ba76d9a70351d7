// Plans on the code, the VS Code side: the overlays kept from the server, their decorations on visible editors, and
// the commands Show Plan on Code, Toggle Plan on Code and the Runs view's "open this change".
import * as vscode from 'vscode';
import type { ClientDeps } from '../clientDeps';
import { registerCommands } from '../commands';
import { pickRun, pickWorkspace } from '../runs/actions/pickers';
import { isResourceChange, openResourceChange } from '../runs/actions/openResourceChange';
import { runNodeOf, workspaceRefOf } from '../runs/model';
import type { RunsTreeProvider } from '../runs/tree/runsTreeProvider';
import { planFinished } from '../runs/tree/runPresentation';
import { PlanDecorations, type PlanDecorationsReader } from './planDecorations';
import { showPlanOnCode, togglePlanOverlay } from './planOverlayCommands';
import { PlanOverlays } from './planOverlays';

export function registerPlanOverlay(context: vscode.ExtensionContext, deps: ClientDeps, runsView: RunsTreeProvider): PlanDecorationsReader {
  const overlays = new PlanOverlays(deps);
  const decorations = new PlanDecorations(context, overlays);
  context.subscriptions.push(overlays, decorations);

  registerCommands(context, {
    // From a run (or its Resource changes) in the Runs view, or the palette: a workspace, then one of its planned runs.
    'hcpTerraform.showPlanOnCode': async (value: unknown) => {
      let node = runNodeOf(value);
      if (!node) {
        const workspace = workspaceRefOf(value) ?? (await pickWorkspace(deps, runsView, 'Show Plan on Code: which workspace?'));
        if (workspace) node = await pickRun(deps, workspace, `Show Plan on Code: which plan of ${workspace.name}?`, planFinished, { anyRun: true });
      }
      return showPlanOnCode(deps, overlays, node);
    },
    'hcpTerraform.togglePlanOverlay': () => togglePlanOverlay(),
    'hcpTerraform.openResourceChange': (value: unknown) => openResourceChange(isResourceChange(value) ? value : undefined),
  });
  return decorations;
}

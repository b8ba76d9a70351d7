// Show Plan on Code (put a chosen run's plan on the code of the folder linked to its workspace) and Toggle Plan on
// Code (the hcpTerraform.planOverlay.enabled setting, which the server reads too).
import * as vscode from 'vscode';
import { planOverlayRequest, type ServerCommandResults } from '../../../server/src/protocol';
import type { ClientDeps } from '../clientDeps';
import type { RunNode } from '../runs/model';
import { runLabel } from '../runs/tree/runPresentation';
import { errorMessage } from '../serverAccess';
import { prompts } from '../userPrompts';
import { sameFile } from './editorVerdicts';
import { enabledSetting, planOverlayEnabled } from './planDecorations';
import type { PlanOverlays } from './planOverlays';

export async function showPlanOnCode(deps: ClientDeps, overlays: PlanOverlays, node: RunNode | undefined): Promise<ServerCommandResults['showPlanOnCode'] | undefined> {
  if (!node) return undefined;
  if (!planOverlayEnabled()) {
    const choice = await prompts.information('HCP Terraform: Plan on Code is turned off (hcpTerraform.planOverlay.enabled).', 'Turn On');
    if (!choice) return undefined;
    await setEnabled(true);
  }
  let result: ServerCommandResults['showPlanOnCode'];
  try {
    result = await deps.server.command('showPlanOnCode', { hostname: node.workspace.hostname, runId: node.run.id });
  } catch (error) {
    void prompts.error(`HCP Terraform: could not show the plan on the code: ${errorMessage(error)}`);
    return undefined;
  }
  if (result.folderUris.length === 0) {
    void prompts.warning(`HCP Terraform: no open folder is linked to ${node.workspace.name}, so its plan has no code to go on.`);
    return result;
  }
  vscode.window.setStatusBarMessage(`HCP Terraform: the plan of "${runLabel(node.run)}" is on the code`, 5_000);
  await revealFirstChange(deps, overlays, result.folderUris[0]!);
  return result;
}

/**
 * When no editor shows a file of the folder, opens the block of the plan's first change, so the command visibly does
 * something; an editor already on the folder is left where it is.
 */
async function revealFirstChange(deps: ClientDeps, overlays: PlanOverlays, folderUri: string): Promise<void> {
  const inFolder = (uri: string) => uri.startsWith(`${folderUri.replace(/\/+$/, '')}/`) || sameFile(uri, folderUri);
  if (vscode.window.visibleTextEditors.some((editor) => inFolder(editor.document.uri.toString()))) return;
  const overlay = overlays.forFolder(folderUri) ?? (await deps.server.request(planOverlayRequest, { folderUri }).catch(() => null));
  const block = overlay?.blocks.find((b) => b.action !== 'no-op') ?? overlay?.blocks[0];
  if (!block) return;
  const position = new vscode.Position(block.range.start.line, block.range.start.character);
  await vscode.window.showTextDocument(vscode.Uri.parse(block.uri), { selection: new vscode.Range(position, position), preview: true });
}

/** Flips the setting where it is set (a folder's or workspace's value wins over the user's), and returns the new value. */
export async function togglePlanOverlay(): Promise<boolean> {
  const next = !planOverlayEnabled();
  await setEnabled(next);
  vscode.window.setStatusBarMessage(`HCP Terraform: Plan on Code ${next ? 'on' : 'off'}`, 4_000);
  return next;
}

async function setEnabled(value: boolean): Promise<void> {
  const configuration = vscode.workspace.getConfiguration('hcpTerraform');
  const inspected = configuration.inspect<boolean>(enabledSetting);
  const target = inspected?.workspaceFolderValue !== undefined ? vscode.ConfigurationTarget.WorkspaceFolder : inspected?.workspaceValue !== undefined ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await configuration.update(enabledSetting, value, target);
}

// Selecting a planned change in the Runs view: its block in the code, or, when the code has none (a destroyed
// resource whose block is gone, a remote module's resource), its address said, with a way to copy it.
import * as vscode from 'vscode';
import type { ResourceChangeNode } from '../model';
import { prompts } from '../../userPrompts';
import { actionDescription } from '../../planOverlay/verdictLook';

export async function openResourceChange(node: ResourceChangeNode | undefined): Promise<void> {
  if (!node) return;
  const { change } = node;
  if (change.uri && change.range) {
    const { start, end } = change.range;
    const range = new vscode.Range(start.line, start.character, end.line, end.character);
    const editor = await vscode.window.showTextDocument(vscode.Uri.parse(change.uri), { selection: new vscode.Range(range.start, range.start), preview: true });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    return;
  }
  const choice = await prompts.information(`HCP Terraform: ${change.address} (${actionDescription(change.action, change.reason)}) has no block in the linked folder's code.`, 'Copy Address');
  if (choice) await vscode.env.clipboard.writeText(change.address);
}

export function isResourceChange(value: unknown): value is ResourceChangeNode {
  return typeof value === 'object' && value !== null && (value as ResourceChangeNode).kind === 'resourceChange';
}

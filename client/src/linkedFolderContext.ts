import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { linkedWorkspacesRequest, type LinkedFolder } from '../../server/src/protocol';
import { log } from './log';
import type { ServerEvents } from './serverEvents';

const linkedFolderContextKey = 'hcpTerraform.linkedFolder';

/**
 * Keeps the `hcpTerraform.linkedFolder` context key true while some open folder is linked to a workspace the
 * service knows: Queue Plan…, Plan Local Changes and Toggle Plan on Code are offered (palette, Runs title bar) only
 * then, since each acts on a linked folder's workspace. Re-read on every folder change the server reports, so
 * adding or removing a cloud block, or a workspace appearing, shows or hides them.
 */
export function trackLinkedFolder(client: LanguageClient, events: ServerEvents): vscode.Disposable {
  const update = async () => {
    try {
      const folders = await client.sendRequest(linkedWorkspacesRequest);
      await vscode.commands.executeCommand('setContext', linkedFolderContextKey, anyFolderLinked(folders));
    } catch (error) {
      log.warn(`Could not read the linked folders: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  void update();
  return events.onWorkspaceChanged(() => void update());
}

/** Linked means the workspace was found: a cloud block whose workspace is still loading, missing or signed out offers nothing to plan in. */
export function anyFolderLinked(folders: readonly LinkedFolder[]): boolean {
  return folders.some((folder) => folder.state.kind === 'linked');
}

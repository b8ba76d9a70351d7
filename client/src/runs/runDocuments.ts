import * as vscode from 'vscode';
import { runDetailsRequest, workspaceRequest, type RunSummary } from '../../../server/src/protocol';
import type { ClientDeps } from '../clientDeps';
import { errorMessage } from '../serverAccess';
import { runDetailsMarkdown } from './documents/runDetailsText';
import { RunLogs } from './documents/runLogs';
import { parseRunDocumentUri, runDocumentUri, runScheme, type RunDocumentAddress } from './documents/runUris';

/**
 * Read-only documents of the `hcp-terraform-run:` scheme: a run's details (markdown, shown rendered) and its plan and
 * apply logs (in the `hcp-terraform-log` grammar), which follow a running phase. Returns what the commands open them with.
 */
export function registerRunDocuments(context: vscode.ExtensionContext, deps: ClientDeps): RunDocuments {
  const documents = new RunDocuments(deps);
  context.subscriptions.push(documents, vscode.workspace.registerTextDocumentContentProvider(runScheme, documents));
  return documents;
}

export class RunDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  readonly logs: RunLogs;
  private readonly subscriptions: vscode.Disposable[];
  /** The workspace of each run whose details were opened or read, by host and run: the document's address names neither. */
  private readonly workspaceNames = new Map<string, WorkspaceName>();

  constructor(private readonly deps: ClientDeps) {
    this.logs = new RunLogs(deps);
    this.subscriptions = [
      this.logs.onDidChange((uri) => this.changed.fire(uri)),
      // An open details document follows its run: every change the server reports re-renders it.
      deps.events.onRunsChanged(({ hostname, runs }) => {
        for (const document of vscode.workspace.textDocuments) {
          const address = parseRunDocumentUri(document.uri);
          if (address?.kind === 'details' && address.hostname === hostname && runs.some((run) => run.id === address.runId)) this.changed.fire(document.uri);
        }
      }),
    ];
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const address = parseRunDocumentUri(uri);
    if (!address) return `This is not a run document: ${uri.toString()}`;
    if (address.kind === 'log') return this.logs.text(uri, address);
    try {
      const details = await this.deps.server.request(runDetailsRequest, { hostname: address.hostname, runId: address.runId });
      return runDetailsMarkdown(details, await this.workspaceNameOf(address.hostname, details.run));
    } catch (error) {
      return `# Run ${address.runId}\n\nCould not read the run: ${errorMessage(error)}\n`;
    }
  }

  /**
   * Opens a phase's log in an editor (in the run-log grammar), or a run's details in the markdown preview: they are
   * written to be read rendered, and shown as text every escape of the service's text would show. `workspace` names
   * the run's workspace in the details (the tree and the pickers know it).
   */
  async open(address: RunDocumentAddress, workspace?: WorkspaceName): Promise<void> {
    if (workspace) this.workspaceNames.set(runKey(address.hostname, address.runId), { organization: workspace.organization, name: workspace.name });
    if (address.kind === 'details') {
      const previewed = await vscode.commands.executeCommand('markdown.showPreview', runDocumentUri(address)).then(() => true, () => false);
      if (previewed) return;
      // Without the markdown extension the source still reads.
    }
    const document = await vscode.workspace.openTextDocument(runDocumentUri(address));
    const typed = address.kind === 'log' && document.languageId !== 'hcp-terraform-log' ? await vscode.languages.setTextDocumentLanguage(document, 'hcp-terraform-log') : document;
    await vscode.window.showTextDocument(typed, { preview: true });
  }

  /** The run's workspace: as given when opened, else read once by its id (a details document restored after a reload). */
  private async workspaceNameOf(hostname: string, run: RunSummary): Promise<WorkspaceName | undefined> {
    const known = this.workspaceNames.get(runKey(hostname, run.id));
    if (known || !run.workspaceId) return known;
    try {
      const { organization, name } = await this.deps.server.request(workspaceRequest, { hostname, workspaceId: run.workspaceId });
      this.workspaceNames.set(runKey(hostname, run.id), { organization, name });
      return { organization, name };
    } catch {
      return undefined; // the details read without the line rather than fail
    }
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.logs.dispose();
    this.changed.dispose();
  }
}

interface WorkspaceName {
  organization: string;
  name: string;
}

const runKey = (hostname: string, runId: string) => `${hostname}\u0000${runId}`;

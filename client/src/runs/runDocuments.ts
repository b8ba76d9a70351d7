import * as vscode from 'vscode';
import { runDetailsRequest } from '../../../server/src/protocol';
import type { ClientDeps } from '../clientDeps';
import { errorMessage } from '../serverAccess';
import { runDetailsMarkdown } from './documents/runDetailsText';
import { RunLogs } from './documents/runLogs';
import { parseRunDocumentUri, runDocumentUri, runScheme, type RunDocumentAddress } from './documents/runUris';

/**
 * Read-only documents of the `hcp-terraform-run:` scheme: a run's details (markdown) and its plan and apply logs
 * (in the `hcp-terraform-log` grammar), which follow a running phase. Returns what the commands open them with.
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
      return runDetailsMarkdown(details);
    } catch (error) {
      return `# Run ${address.runId}\n\nCould not read the run: ${errorMessage(error)}\n`;
    }
  }

  /** Opens a run's details or a phase's log in an editor (logs in the run-log grammar). */
  async open(address: RunDocumentAddress): Promise<vscode.TextEditor> {
    const document = await vscode.workspace.openTextDocument(runDocumentUri(address));
    const typed = address.kind === 'log' && document.languageId !== 'hcp-terraform-log' ? await vscode.languages.setTextDocumentLanguage(document, 'hcp-terraform-log') : document;
    return vscode.window.showTextDocument(typed, { preview: true });
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.logs.dispose();
    this.changed.dispose();
  }
}

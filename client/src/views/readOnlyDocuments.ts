import * as vscode from 'vscode';

export const documentScheme = 'hcp-terraform-doc';

/**
 * Read-only markdown documents of the `hcp-terraform-doc:` scheme (a change request, the subscription), built by the
 * command that opens them and kept only while VS Code asks for them. Opened with the markdown preview beside the
 * text, so the message reads rendered. Nothing secret is ever put here (the organization token never is).
 */
export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  static register(context: vscode.ExtensionContext): ReadOnlyDocuments {
    const documents = new ReadOnlyDocuments();
    context.subscriptions.push(documents, vscode.workspace.registerTextDocumentContentProvider(documentScheme, documents));
    return documents;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? 'This document is no longer available: open it again from the HCP Terraform view.';
  }

  /** Shows `markdown` at `path` (e.g. `/change-requests/wscr-1.md`): the source in an editor, rendered in the preview. */
  async openMarkdown(path: string, markdown: string): Promise<vscode.TextDocument> {
    const uri = vscode.Uri.from({ scheme: documentScheme, path });
    this.texts.set(uri.toString(), markdown);
    this.changed.fire(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    const typed = document.languageId === 'markdown' ? document : await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    await vscode.window.showTextDocument(typed, { preview: true });
    // The preview is the point; without the markdown extension the text stays readable.
    await vscode.commands.executeCommand('markdown.showPreviewToSide', uri).then(undefined, () => undefined);
    return typed;
  }

  /**
   * Re-renders the document at `path` if it was opened and its text changed: VS Code reads a provider's document again
   * only when told its URI changed, and then every editor and preview showing it follows. One never opened stays unopened.
   */
  update(path: string, markdown: string): void {
    const uri = vscode.Uri.from({ scheme: documentScheme, path });
    const shown = this.texts.get(uri.toString());
    // Never opened: stays so. Unchanged: no re-read (each list read would redraw every open preview).
    if (shown === undefined || shown === markdown) return;
    this.texts.set(uri.toString(), markdown);
    this.changed.fire(uri);
  }

  /** The text last opened at `path` (tests read what the user reads). */
  textAt(path: string): string | undefined {
    return this.texts.get(vscode.Uri.from({ scheme: documentScheme, path }).toString());
  }

  dispose(): void {
    this.changed.dispose();
  }
}

// The plan overlays the server shows, per module folder, kept on the client side so decorations can be drawn for any
// editor at any time: the server pushes every change (hcpTerraform/planOverlayChanged), and a document the client has
// not seen yet is asked about once (hcpTerraform/planOverlay) when its editor becomes visible.
import * as vscode from 'vscode';
import { planOverlayRequest, type PlanOverlay } from '../../../server/src/protocol';
import type { ClientDeps } from '../clientDeps';
import { log } from '../log';
import { errorMessage } from '../serverAccess';

export class PlanOverlays implements vscode.Disposable {
  private readonly overlays = new Map<string, PlanOverlay>();
  /** Documents already asked about since the server started (an answer covers the whole folder, kept by its URI). */
  private readonly asked = new Set<string>();
  /** Counts notifications, and remembers per folder the count of its latest: an answer older than that is dropped. */
  private notifications = 0;
  private readonly notifiedAt = new Map<string, number>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly deps: ClientDeps) {
    this.subscriptions = [
      deps.events.onPlanOverlayChanged(({ folderUri, overlay }) => {
        this.notifiedAt.set(folderUri, ++this.notifications);
        this.set(folderUri, overlay);
      }),
      // A restarted server may show other plans: forget everything and ask again for what is on screen.
      deps.server.onDidStart(() => this.reset()),
    ];
  }

  all(): Iterable<PlanOverlay> {
    return this.overlays.values();
  }

  forFolder(folderUri: string): PlanOverlay | undefined {
    return this.overlays.get(folderUri);
  }

  /** Forgets every overlay and question; listeners redraw (nothing), and ask again for their documents. */
  reset(): void {
    this.overlays.clear();
    this.asked.clear();
    this.notifiedAt.clear();
    this.changed.fire();
  }

  /** Asks the server for the overlay of the document's folder, once per document while the server runs. */
  async ensure(document: vscode.TextDocument): Promise<void> {
    const uri = document.uri.toString();
    if (document.uri.scheme !== 'file' || document.languageId !== 'terraform' || this.asked.has(uri) || !this.deps.server.running) return;
    this.asked.add(uri);
    const askedAt = this.notifications;
    try {
      const overlay = await this.deps.server.request(planOverlayRequest, { folderUri: uri });
      // A notification about the folder that came while the question was out is newer than this answer.
      if (overlay && (this.notifiedAt.get(overlay.folderUri) ?? 0) <= askedAt) this.set(overlay.folderUri, overlay);
    } catch (error) {
      this.asked.delete(uri); // asked again next time it shows
      log.warn(`Could not read the plan overlay of ${vscode.workspace.asRelativePath(document.uri)}: ${errorMessage(error)}`);
    }
  }

  private set(folderUri: string, overlay: PlanOverlay | null): void {
    if (overlay) this.overlays.set(folderUri, overlay);
    else if (!this.overlays.delete(folderUri)) return;
    this.changed.fire();
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}

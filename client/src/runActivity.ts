import * as vscode from 'vscode';
import type { RunSummary } from '../../server/src/protocol';

/**
 * What this window did to runs: the runs it queued (whose notifications the user asked for by default) and every
 * run it acted on, so the views re-render that run at once instead of waiting for the watcher.
 */
export class RunActivity implements vscode.Disposable {
  private readonly mine = new Set<string>();
  private readonly acted = new vscode.EventEmitter<RunSummary>();
  /** Fires with the run as the service answered right after this window queued it or acted on it. */
  readonly onDidAct = this.acted.event;

  /** A run queued from this window. */
  queued(run: RunSummary): void {
    this.mine.add(run.id);
    this.acted.fire(run);
  }

  /** A run this window applied, discarded, canceled... (the answer the server read back). */
  changed(run: RunSummary): void {
    this.acted.fire(run);
  }

  isMine(runId: string): boolean {
    return this.mine.has(runId);
  }

  dispose(): void {
    this.acted.dispose();
  }
}

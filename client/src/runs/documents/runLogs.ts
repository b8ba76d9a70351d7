// Plan and apply logs as read-only documents that follow a running phase: each read asks the server only for the
// bytes after what it already has (runDetails with a log offset), the document grows by what arrived, and reading
// stops when the log is complete or the document is closed.
import * as vscode from 'vscode';
import { runDetailsRequest } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import { errorMessage } from '../../serverAccess';
import { cleanLogText, nextPollMs, renderLogLines } from './logText';
import type { RunDocumentAddress } from './runUris';

interface FollowedLog {
  raw: string;
  offset: number;
  complete: boolean;
  error?: string;
  timer?: ReturnType<typeof setTimeout>;
  waitMs?: number;
  reading?: Promise<void>;
}

export class RunLogs implements vscode.Disposable {
  private readonly logs = new Map<string, FollowedLog>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly closing: vscode.Disposable;

  constructor(private readonly deps: ClientDeps) {
    this.closing = vscode.workspace.onDidCloseTextDocument((document) => this.stop(document.uri.toString()));
  }

  /** The log's text so far; the first call starts reading it. */
  async text(uri: vscode.Uri, address: RunDocumentAddress): Promise<string> {
    const key = uri.toString();
    let log = this.logs.get(key);
    if (!log) {
      log = { raw: '', offset: 0, complete: false };
      this.logs.set(key, log);
      await this.read(uri, address, log);
    }
    return render(log, address);
  }

  private read(uri: vscode.Uri, address: RunDocumentAddress, log: FollowedLog): Promise<void> {
    log.reading ??= (async () => {
      let gotText = false;
      try {
        const offsets = address.phase === 'plan' ? { planLogOffset: log.offset } : { applyLogOffset: log.offset };
        const details = await this.deps.server.request(runDetailsRequest, { hostname: address.hostname, runId: address.runId, ...offsets });
        const phase = address.phase === 'plan' ? details.plan : details.apply;
        log.error = undefined;
        if (phase?.log) {
          gotText = phase.log.text.length > 0;
          log.raw += phase.log.text;
          log.offset = phase.log.nextOffset;
          log.complete = phase.log.complete;
        } else if (phase && ['finished', 'errored', 'canceled', 'unreachable', 'skipped'].includes(phase.status)) {
          log.complete = true; // a phase that ended without a log has nothing more to give
        }
      } catch (error) {
        log.error = errorMessage(error);
      } finally {
        log.reading = undefined;
      }
      if (this.logs.get(uri.toString()) !== log) return; // closed meanwhile
      if (gotText || log.error) this.changed.fire(uri);
      if (!log.complete) {
        log.waitMs = nextPollMs(log.waitMs, gotText);
        log.timer = setTimeout(() => void this.read(uri, address, log), log.error ? Math.max(log.waitMs, 5_000) : log.waitMs);
      }
    })();
    return log.reading;
  }

  private stop(key: string): void {
    const log = this.logs.get(key);
    if (log?.timer) clearTimeout(log.timer);
    this.logs.delete(key);
  }

  /** Whether a log document is still following its phase (tests wait on this through onDidChange). */
  isComplete(uri: vscode.Uri): boolean | undefined {
    return this.logs.get(uri.toString())?.complete;
  }

  dispose(): void {
    for (const key of [...this.logs.keys()]) this.stop(key);
    this.closing.dispose();
    this.changed.dispose();
  }
}

function render(log: FollowedLog, address: RunDocumentAddress): string {
  const text = renderLogLines(cleanLogText(log.raw));
  const notes: string[] = [];
  if (!text && !log.complete) notes.push(`Waiting for the ${address.phase} to start…`);
  if (log.error) notes.push(`Could not read more of the log: ${log.error} (retrying)`);
  return notes.length ? `${text}${text ? '\n' : ''}${notes.map((n) => `# ${n}`).join('\n')}\n` : text;
}

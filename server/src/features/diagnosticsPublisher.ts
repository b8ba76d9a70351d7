// Publishes the diagnostics of module folders, debounced: a burst of changes (keystrokes, an initial load, a
// multi-file edit) gives one recomputation per folder once the burst pauses, so requests that arrive while the user
// types are answered before any diagnostics work, and the work for an older version is dropped, never published
// after a newer one's. An open document's diagnostics carry the version they were computed from.
import type { Diagnostic } from 'vscode-languageserver';
import type { ModuleFolderModel, TerraformParser } from '../model';
import { fileUriOf } from '../model/filePaths';

export interface DiagnosticsPublisherOptions {
  /** Computes a folder's diagnostics by file (absolute path); an absent model means the folder went away. */
  compute(folder: string, model: ModuleFolderModel | undefined, parser: TerraformParser): Map<string, Diagnostic[]>;
  models(): Iterable<ModuleFolderModel>;
  /** The version of an open document as the model last applied it; undefined when the file is not open. */
  versionOf(uri: string): number | undefined;
  send(uri: string, diagnostics: Diagnostic[], version: number | undefined): void;
  /** Runs `sendAll`, whose sends may leave in one write (a folder's files are published at once). */
  sendTogether?(sendAll: () => void): void;
  parser: Promise<TerraformParser>;
  log(what: string, error: unknown): void;
  /** Quiet time after the last change before diagnostics are computed. */
  delayMs?: number;
  /** However long a burst lasts, diagnostics are computed at least this often. */
  maxDelayMs?: number;
}

/**
 * The next turn of the event loop: enough to gather what one burst touches (several folders, files changed on disk
 * together). The requests sent with a keystroke already went first, while the model waited its own moment
 * (documents/syncTiming.ts modelUpdateDelayMs).
 */
export const defaultDiagnosticsDelayMs = 0;
const defaultMaxDelayMs = 250;

export class DiagnosticsPublisher {
  /** What was last published per folder: uri → serialized diagnostics and version, so unchanged files are not re-sent. */
  private readonly published = new Map<string, Map<string, string>>();
  private readonly pending = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private firstPendingAt = 0;
  private flushing: Promise<void> = Promise.resolve();
  private idle: { promise: Promise<void>; resolve: () => void } | undefined;
  private disposed = false;

  constructor(private readonly options: DiagnosticsPublisherOptions) {}

  /** Asks for the folder's diagnostics to be recomputed after the current burst of changes. */
  schedule(folder: string): void {
    if (this.disposed) return;
    const now = Date.now();
    if (this.pending.size === 0) this.firstPendingAt = now;
    this.pending.add(folder);
    if (!this.idle) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.idle = { promise, resolve };
    }
    if (this.timer) clearTimeout(this.timer);
    const delay = Math.min(this.options.delayMs ?? defaultDiagnosticsDelayMs, Math.max(0, this.firstPendingAt + (this.options.maxDelayMs ?? defaultMaxDelayMs) - now));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flushing = this.flushing.then(() => this.flush());
    }, delay);
  }

  /** Resolves once every recomputation asked for so far has been published. */
  async settled(): Promise<void> {
    while (this.idle) await this.idle.promise;
    await this.flushing;
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
    this.idle?.resolve();
    this.idle = undefined;
  }

  private async flush(): Promise<void> {
    let parser: TerraformParser | undefined;
    try {
      parser = await this.options.parser;
    } catch {
      // already logged: without a parser there are no diagnostics
    }
    const folders = [...this.pending];
    this.pending.clear();
    const idle = this.timer ? undefined : this.idle;
    if (idle) this.idle = undefined;
    try {
      if (this.disposed || !parser) return;
      const models = new Map<string, ModuleFolderModel>();
      for (const model of this.options.models()) models.set(model.folder, model);
      for (const folder of folders) {
        // A folder's files leave together; each folder as soon as it is computed, not after every other folder.
        const publish = () => this.publishFolder(folder, models.get(folder), parser);
        try {
          if (this.options.sendTogether) this.options.sendTogether(publish);
          else publish();
        } catch (error) {
          this.options.log(`diagnostics of ${folder}`, error);
        }
      }
    } finally {
      idle?.resolve();
    }
  }

  private publishFolder(folder: string, model: ModuleFolderModel | undefined, parser: TerraformParser): void {
    // A large document opened is read in slices, and until then the folder lacks its facts: every `var.x` it declares
    // would be reported undeclared meanwhile. What was published stays; the end of that read asks again.
    if (model?.awaitsFirstRead()) return;
    const previous = this.published.get(folder) ?? new Map<string, string>();
    const next = new Map<string, string>();
    const byFile = model ? this.options.compute(folder, model, parser) : new Map<string, Diagnostic[]>();
    // Open documents are always listed, so each new version is answered even when it has no problems.
    for (const file of model?.openFiles() ?? []) if (!byFile.has(file)) byFile.set(file, []);
    for (const [file, diagnostics] of byFile) {
      const uri = fileUriOf(file);
      const version = this.options.versionOf(uri);
      const serialized = `${version ?? ''}\u0000${JSON.stringify(diagnostics)}`;
      next.set(uri, serialized);
      if (previous.get(uri) !== serialized) this.options.send(uri, diagnostics, version);
    }
    for (const uri of previous.keys()) if (!next.has(uri)) this.options.send(uri, [], undefined);
    if (next.size === 0) this.published.delete(folder);
    else this.published.set(folder, next);
  }
}

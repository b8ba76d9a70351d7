// Text document sync (incremental) into the code models, and watched files for everything not open in the editor.
// Open-document text beats disk; a file's disk changes are ignored by its model while it is open.
import type { Connection } from 'vscode-languageserver';
import { performance } from 'node:perf_hooks';
import { DidChangeWatchedFilesNotification, FileChangeType } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { folderOfFile, toPath } from './moduleFolders';
import { collectGarbageSoon, largeDocumentLength } from './releaseMemory';
import type { ModuleFolders } from './moduleFolders';
import type { TextChange, TextLines } from '../model';

/** What the server watches on disk (registered dynamically when the client supports it). */
export const watchedFileGlobs = ['**/*.tf', '**/*.tfvars', '**/*.tfvars.json', '**/.terraform/environment', '**/.terraformignore'];

/**
 * The open documents as the features read them: the latest text and version the client sent, and (for open ones)
 * its line offsets, kept up to date edit by edit, so a request never indexes the lines of a 1 MB file again.
 */
export interface OpenDocumentView {
  get(uri: string): ({ getText(): string; version: number } & Partial<TextLines>) | undefined;
  /** The version the code model has applied (behind `get` for a moment after each change). */
  modelVersion(uri: string): number | undefined;
  /**
   * Resolves once the model reflects the document's latest text, at least up to `line` (for requests that read
   * positions from the model: hover, code actions, lenses). Completion does not wait: it reads the latest text.
   */
  whenCurrent(uri: string, line?: number): Promise<void>;
}

interface Batch {
  changes: TextChange[];
  version: number;
  /** The first line any change of the batch touches (-1 for a whole-document change). */
  firstLine: number;
  timer: ReturnType<typeof setTimeout>;
}

/** How long after a change the model follows: changes within it are applied together, after the requests sent with them. */
export const modelUpdateDelayMs = 5;

/**
 * The wait grows with what the document's last update cost: an edit read from its block alone takes ~2 ms, so the
 * model (and the diagnostics) follow at once; an edit that breaks a block of a 1 MB file re-parses the file (~20
 * ms), and a completion sent 6 ms after the keystroke must not wait behind that.
 */
export function modelUpdateDelay(lastUpdateMs: number | undefined): number {
  return Math.min(maxModelUpdateDelayMs, Math.max(modelUpdateDelayMs, Math.ceil((lastUpdateMs ?? 0) * 2)));
}
const maxModelUpdateDelayMs = 50;

/** `onEdit`: a file's content changed by the user (typed in the editor, or changed on disk), not by opening it. */
export function registerDocumentSync(connection: Connection, folders: ModuleFolders, onEdit?: (file: string) => void): OpenDocumentView {
  const edited = (uri: string) => {
    try {
      onEdit?.(toPath(uri));
    } catch {
      // a listener's failure must not stop the sync
    }
  };
  // Each open document's latest text and version as the client sent them, and the version the model has applied.
  // Requests read the latest text at once; the model (parse, extraction, diagnostics) follows a moment later, once
  // per burst: the changes that arrive within `modelUpdateDelay` are applied together, in one parse.
  // TextDocument updates its line offsets by the edit (a shift of the lines after it), not by a new scan of the text.
  const latest = new Map<string, TextDocument>();
  const applied = new Map<string, number>();
  const pending = new Map<string, Batch>();
  /** How long the model's last update of each open document took (ms). */
  const updateCost = new Map<string, number>();
  /** Hands the document's pending changes to the model now; resolves once they are applied. */
  const applyPending = (uri: string): Promise<unknown> => {
    const batch = pending.get(uri);
    if (!batch) return Promise.resolve();
    clearTimeout(batch.timer);
    pending.delete(uri);
    return folders.withModel(uri, (model) => {
      const started = performance.now();
      // The batch ends at the latest version (no change came after it): the model can share this text.
      const current = latest.get(uri);
      const resultText = current?.version === batch.version ? current.getText() : undefined;
      if (model.changeDocument(uri, batch.changes, resultText)) applied.set(uri, batch.version);
      updateCost.set(uri, performance.now() - started);
    });
  };
  const cancelPending = (uri: string) => {
    const batch = pending.get(uri);
    if (batch) clearTimeout(batch.timer);
    pending.delete(uri);
  };
  connection.onDidOpenTextDocument(({ textDocument }) => {
    if (!isFileUri(textDocument.uri)) return;
    const { uri, version, text } = textDocument;
    cancelPending(uri); // the open text replaces whatever was pending
    latest.set(uri, TextDocument.create(uri, textDocument.languageId, version, text));
    void folders.withModel(
      uri,
      (model) => {
        model.openDocument(uri, text);
        applied.set(uri, version);
      },
      { text },
    );
  });
  connection.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
    if (!isFileUri(textDocument.uri)) return;
    const { uri, version } = textDocument;
    const current = latest.get(uri);
    try {
      if (current) TextDocument.update(current, contentChanges, version);
    } catch {
      latest.delete(uri); // changes it cannot apply: requests read the model's text until the document is opened again
    }
    const firstLine = Math.min(...contentChanges.map((change: TextChange) => (change.range ? change.range.start.line : -1)));
    const queued = pending.get(uri);
    if (queued) {
      queued.changes.push(...contentChanges);
      queued.version = version;
      queued.firstLine = Math.min(queued.firstLine, firstLine);
    } else {
      const batch: Batch = { changes: [...contentChanges], version, firstLine, timer: setTimeout(() => void applyPending(uri), modelUpdateDelay(updateCost.get(uri))) };
      pending.set(uri, batch);
    }
    edited(uri);
  });
  connection.onDidCloseTextDocument(({ textDocument }) => {
    if (!isFileUri(textDocument.uri)) return;
    cancelPending(textDocument.uri);
    const closedLength = latest.get(textDocument.uri)?.getText().length ?? 0;
    latest.delete(textDocument.uri);
    updateCost.delete(textDocument.uri);
    const closed = folders.withModel(textDocument.uri, (model) => {
      applied.delete(textDocument.uri);
      return model.closeDocument(textDocument.uri);
    });
    // A large document's texts are garbage now: give the memory back instead of whenever V8 gets to it.
    if (closedLength >= largeDocumentLength) void closed.finally(() => collectGarbageSoon());
  });
  connection.onDidChangeWatchedFiles(({ changes }) => {
    for (const change of changes) {
      if (!isFileUri(change.uri)) continue;
      if (folderOfFile(toPath(change.uri))) edited(change.uri);
      if (change.type === FileChangeType.Deleted) {
        // A deleted file of an unknown folder needs no model.
        if (folders.modelFor(change.uri)) void folders.withModel(change.uri, (model) => model.fileDeleted(change.uri));
      } else void folders.withModel(change.uri, (model) => model.fileChanged(change.uri));
    }
  });
  return {
    get(uri) {
      const open = latest.get(uri);
      if (open) return open;
      const text = folders.modelFor(uri)?.openText(uri);
      return text === undefined ? undefined : { getText: () => text, version: applied.get(uri) ?? 0 };
    },
    modelVersion: (uri) => applied.get(uri),
    async whenCurrent(uri, line) {
      const batch = pending.get(uri);
      // Lines above the first changed one are where they were: the model answers for them as it is.
      if (!batch || (line !== undefined && line < batch.firstLine)) return;
      await applyPending(uri);
    },
  };
}

/** Asks the client to watch the model files, when it can register watchers dynamically. */
export async function registerFileWatchers(connection: Connection): Promise<void> {
  await connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: watchedFileGlobs.map((globPattern) => ({ globPattern })) });
}

function isFileUri(uri: string): boolean {
  return uri.startsWith('file:');
}

// Text document sync (incremental) into the code models, and watched files for everything not open in the editor.
// Open-document text beats disk; a file's disk changes are ignored by its model while it is open.
import type { Connection, FileEvent } from 'vscode-languageserver';
import { performance } from 'node:perf_hooks';
import { FileChangeType } from 'vscode-languageserver';
import { isWatchedFile } from './fileWatchers';
import { goneFilesBelow, mayHoldModuleFolders, newFilesBelow } from './folderEvents';
import { LatestText } from './latestText';
import { localPathOf } from '../model/filePaths';
import { folderOfFile } from './folderDiscovery';
import { collectGarbageSoon, largeDocumentLength } from './releaseMemory';
import type { ModuleFolders } from './moduleFolders';
import type { TimerHandle } from '../workspaces/timers';
import type { ChangeOffsets, TextChange, TextLines } from '../model';

/** What the server watches on disk (registered dynamically when the client supports it). */
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
  /** Where each change fell in the text it applied to (from the server's copy), when every one is known. */
  offsets: (ChangeOffsets | undefined)[] | undefined;
  version: number;
  /** The first line any change of the batch touches (-1 for a whole-document change). */
  firstLine: number;
  timer: TimerHandle;
}

/**
 * The clock and timers the model's work is scheduled with: the real ones in the server; a test passes its own, which
 * it advances by hand, to check the delays below without waiting on them.
 */
export interface SyncClock {
  /** Milliseconds, finer than one (a few ms decide here). */
  now(): number;
  setTimer(ms: number, callback: () => void): TimerHandle;
  /** Runs `callback` on the next turn of the event loop (after the request handlers queued before it). */
  setImmediate(callback: () => void): void;
}

const realClock: SyncClock = {
  now: () => performance.now(),
  setTimer(ms, callback) {
    const timer = setTimeout(callback, ms);
    return { cancel: () => clearTimeout(timer) };
  },
  setImmediate: (callback) => void setImmediate(callback),
};

/** How long after a change the model follows: changes within it are applied together, after the requests sent with them. */
export const modelUpdateDelayMs = 2;
/** How long after the last request reading the document the model's update waits... */
export const quietMs = 2;
/** ...and how long at most, however many requests keep coming. */
export const maxQuietWaitMs = 20;

/**
 * An edit the model cannot read from its block alone (it breaks the block, or reaches past it) needs the whole file
 * parsed: ~20 ms for 1 MB, ~80 ms for 4 MB. That parse waits twice what the document's last one took (10-50 ms), so
 * the requests sent with the keystroke are answered first, and a burst of such edits is parsed once. After a slow
 * parse the next waits for the typing to pause instead (see `heavyParseMs`).
 */
export function wholeParseDelay(lastParseMs: number | undefined): number {
  return Math.min(maxWholeParseDelayMs, Math.max(minWholeParseDelayMs, Math.ceil((lastParseMs ?? 0) * 2)));
}
const minWholeParseDelayMs = 10;
const maxWholeParseDelayMs = 50;
/** However long a burst of such edits lasts, the file is parsed at least this often (unless its last parse was slow). */
export const maxWholeParseWaitMs = 250;
/**
 * A whole-file parse that took longer than this, or that a change stopped: a large file left broken (an unbalanced
 * brace in 1 MB takes tree-sitter 0.3-1.5 s to recover from, and reading the broken tree 0.25-0.9 s more, both in
 * slices the requests go between, and deleting the tree it replaces 50-140 ms at once). The next one waits until
 * the document has had no change for `verifyDelayMs`: a parse that a keystroke will stop is work for nothing, and
 * the deletion is better not among the keystrokes.
 */
export const heavyParseMs = 100;
/**
 * A block left broken by an edit (a half-typed `var.`) is read from its own text at once; the whole-file parse that
 * confirms it (the recovery from an error is not always local) waits until the document has had no change for this
 * long, so it does not fall between a keystroke and the requests sent with it while the user types.
 */
export const verifyDelayMs = 400;

/** How many times a request reading the model catches up with changes that keep coming (see whenCurrent). */
const maxCatchUpRounds = 4;

export interface DocumentSyncHooks {
  /** A file's content changed by the user (typed in the editor, or changed on disk), not by opening it. */
  onEdit?(file: string): void;
  /** An open document was closed and its model has taken the disk's content back (its tree is gone). */
  onClosed?(): void;
  /** What the delays are measured and waited with (tests drive their own). */
  clock?: SyncClock;
}

/** The open documents, and where changes on disk come in when the server watches the folders itself. */
export interface DocumentSync extends OpenDocumentView {
  /** Files changed on disk, as a client's workspace/didChangeWatchedFiles reports them. */
  watchedFilesChanged(changes: readonly FileEvent[]): void;
}

export function registerDocumentSync(connection: Connection, folders: ModuleFolders, hooks: DocumentSyncHooks = {}): DocumentSync {
  const { onEdit, onClosed, clock = realClock } = hooks;
  const edited = (uri: string) => {
    try {
      onEdit?.(localPathOf(uri));
    } catch {
      // a listener's failure must not stop the sync
    }
  };
  // Each open document's latest text and version as the client sent them, and the version the model has applied.
  // Requests read the latest text at once; the model (parse, extraction, diagnostics) follows a moment later, once
  // per burst: the changes that arrive within `modelUpdateDelayMs` are applied together; an edit that needs the
  // whole file parsed waits a little longer (wholeParseDelay).
  // LatestText updates its line offsets by the edit (a shift of the lines after it), not by a new scan of the text.
  const latest = new Map<string, LatestText>();
  const applied = new Map<string, number>();
  /**
   * The version of the text last handed to the model (opened, or a batch of changes, whatever the model did with it).
   * A whole-file parse answers for this version, not for the one that made it wait: the parse can run after a newer
   * batch reached the model (both wait on the folder's queue), and then it parsed that batch's text too.
   */
  const handed = new Map<string, number>();
  const pending = new Map<string, Batch>();
  /** Documents whose model waits for a whole-file parse: the first line it changes, and when it started waiting. */
  const deferred = new Map<string, { firstLine: number; since: number; timer: TimerHandle }>();
  /** Documents whose facts were read from a broken block alone: the whole-file parse that confirms them, timed. */
  const unverified = new Map<string, { timer: TimerHandle }>();
  /** How long each open document's last whole-file parse took (ms). */
  const parseCost = new Map<string, number>();
  /**
   * Documents whose last whole-file parse was slow: it took over `heavyParseMs`, or a change stopped it (it was
   * slower than the typing). Their next one waits for the typing to pause.
   */
  const slowParses = new Set<string>();
  /** How long a whole-file parse of the document waits after the change that needs it. */
  const parseDelay = (uri: string) => (slowParses.has(uri) ? verifyDelayMs : wholeParseDelay(parseCost.get(uri)));
  /** Whole-file parses under way that requests below `firstLine` wait for (the facts there are out of date until it ends). */
  const parsing = new Map<string, { firstLine: number; done: Promise<unknown> }>();
  /**
   * Parses the document's waiting changes now, a slice at a time (requests are answered between slices), and notes
   * what that cost; the model then answers for the text it holds. A change that comes meanwhile stops the parse
   * (its text is out of date): that change's batch, queued behind it, sets up the next one. Stopped for another
   * reason (the parser's runtime was recycled), the parse is set up again. `firstLine`: where the changes it parses
   * start, for a parse the facts wait for; undefined for one that only confirms them (see `unverified`).
   */
  const parseWaiting = (uri: string, firstLine?: number): Promise<unknown> => {
    const done = folders.withModel(uri, async (model) => {
      // Closed since (its close, queued behind this, reads the disk again): a parse now would be for nothing, and
      // one of a large file left broken takes seconds of CPU.
      if (!latest.has(uri)) return;
      const version = handed.get(uri);
      const latestVersion = latest.get(uri)?.version;
      const stale = () => latest.get(uri)?.version !== latestVersion;
      const started = clock.now();
      const parsed = await model.parsePendingInSlices(uri, { cancelled: stale });
      if (parsed === 'stopped') {
        if (stale()) slowParses.add(uri);
        return setUpAgain(uri, firstLine, stale());
      }
      if (!parsed) return;
      if (version !== undefined) applied.set(uri, version);
      const cost = clock.now() - started;
      parseCost.set(uri, cost);
      if (cost > heavyParseMs) slowParses.add(uri);
      else slowParses.delete(uri);
    });
    if (firstLine !== undefined) {
      const entry = { firstLine, done };
      parsing.set(uri, entry);
      void done.finally(() => {
        if (parsing.get(uri) === entry) parsing.delete(uri);
      });
    }
    return done;
  };
  /**
   * A parse that stopped is timed again as the kind of parse it was. One the facts wait for keeps its first line for
   * the next (the batch of the change that stopped it, queued behind it, re-times that one); a confirming one that a
   * change stopped is timed again by that change's batch.
   */
  const setUpAgain = (uri: string, firstLine: number | undefined, stale: boolean) => {
    if (!latest.has(uri)) return; // closed
    if (firstLine !== undefined) {
      const earlier = takeTimed(deferred, uri);
      deferred.set(uri, { firstLine: Math.min(firstLine, earlier?.firstLine ?? Infinity), since: earlier?.since ?? clock.now(), timer: clock.setTimer(parseDelay(uri), () => void parseDeferred(uri)) });
    } else if (!stale && !pending.has(uri) && !deferred.has(uri)) {
      takeTimed(unverified, uri);
      unverified.set(uri, { timer: clock.setTimer(verifyDelayMs, () => verify(uri)) });
    }
  };
  /** The confirming parse of a document read from a broken block (see `unverified`). */
  const verify = (uri: string) => {
    if (!takeTimed(unverified, uri)) return;
    // A batch still to apply reschedules this; a waiting whole-file parse does it anyway.
    if (pending.has(uri) || deferred.has(uri)) return;
    void parseWaiting(uri);
  };
  /** Parses a document whose changes wait for it (see `deferred`); resolves once done. */
  const parseDeferred = (uri: string): Promise<unknown> => {
    const waiting = takeTimed(deferred, uri);
    return waiting ? parseWaiting(uri, waiting.firstLine) : Promise.resolve();
  };
  /** Hands the document's pending changes to the model now; resolves once they are applied (or deferred). */
  const applyPending = (uri: string): Promise<unknown> => {
    const batch = takeTimed(pending, uri);
    if (!batch) return Promise.resolve();
    return folders.withModel(uri, (model) => {
      // The batch ends at the latest version (no change came after it): the model can share this text.
      const current = latest.get(uri);
      const resultText = current?.version === batch.version ? current.getText() : undefined;
      const result = model.changeDocument(uri, batch.changes, resultText, { deferWholeParse: true, offsets: batch.offsets });
      if (result) handed.set(uri, batch.version);
      if (result === 'deferred') {
        if (resultText !== undefined) current?.joinPieces();
        const earlier = takeTimed(deferred, uri);
        const since = earlier?.since ?? clock.now();
        const delay = slowParses.has(uri) ? parseDelay(uri) : Math.min(parseDelay(uri), Math.max(0, since + maxWholeParseWaitMs - clock.now()));
        deferred.set(uri, { firstLine: Math.min(earlier?.firstLine ?? Infinity, batch.firstLine), since, timer: clock.setTimer(delay, () => void parseDeferred(uri)) });
      } else if (result) {
        applied.set(uri, batch.version);
        if (result === 'unverified') {
          takeTimed(unverified, uri);
          unverified.set(uri, { timer: clock.setTimer(verifyDelayMs, () => verify(uri)) });
        } else if (result === 'isolated') takeTimed(unverified, uri); // still broken: its parse waits for the repair
      }
    });
  };
  /** When a request last read each open document (completion, hover, code actions, lenses ask for it). */
  const lastRequest = new Map<string, number>();
  /** Requests that read a document and whose handler has not yet given the event loop back. */
  let requestsRunning = 0;
  /**
   * A request read the document: noted now, and again once its handler's synchronous work is over (the next turn
   * of the event loop). The end is what matters: a completion that took 3 ms must not let the model's update slip
   * in before the hover and code actions queued behind it, which the JSON-RPC layer runs one per turn.
   */
  const requestRead = (uri: string) => {
    lastRequest.set(uri, clock.now());
    requestsRunning++;
    clock.setImmediate(() => {
      requestsRunning--;
      if (lastRequest.has(uri)) lastRequest.set(uri, clock.now());
    });
  };
  /**
   * Applies the pending changes once no request has read the document for `quietMs`: an editor sends completion,
   * hover and code actions with the keystroke, and they are answered from the latest text before the model's work
   * (a few ms, more when the edit breaks a block) runs. A stream of requests delays it `maxQuietWaitMs` at most.
   */
  const applyWhenQuiet = (uri: string, since: number) => {
    const batch = pending.get(uri);
    if (!batch) return;
    const now = clock.now();
    if ((requestsRunning > 0 || now - (lastRequest.get(uri) ?? -Infinity) < quietMs) && now - since < maxQuietWaitMs) {
      batch.timer = clock.setTimer(quietMs, () => applyWhenQuiet(uri, since));
      return;
    }
    void applyPending(uri);
  };
  /** Drops whatever waits for the model (the text the editor sends next replaces it). */
  const cancelPending = (uri: string) => {
    takeTimed(pending, uri);
    takeTimed(deferred, uri);
    takeTimed(unverified, uri);
  };
  connection.onDidOpenTextDocument(({ textDocument }) => {
    if (!isFileUri(textDocument.uri)) return;
    const { uri, version, text } = textDocument;
    cancelPending(uri); // the open text replaces whatever was pending
    const document = new LatestText(uri, textDocument.languageId, version, text);
    // Its line offsets now, with the open's own work, not on the first keystroke (30 ms for a 4 MB file).
    void document.lineCount;
    latest.set(uri, document);
    void folders.withModel(
      uri,
      (model) => {
        handed.set(uri, version);
        // A large document is parsed in slices, the requests answered between them (see parseWaiting): the
        // version is the model's once that parse ends.
        if (model.openDocument(uri, text) === 'deferred') void parseWaiting(uri, 0);
        else applied.set(uri, version);
      },
      { text },
    );
  });
  connection.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
    if (!isFileUri(textDocument.uri)) return;
    const { uri, version } = textDocument;
    const current = latest.get(uri);
    let offsets: (ChangeOffsets | undefined)[] | undefined;
    try {
      offsets = current?.update(contentChanges, version);
    } catch {
      latest.delete(uri); // changes it cannot apply: requests read the model's text until the document is opened again
    }
    const firstLine = Math.min(...contentChanges.map((change: TextChange) => (change.range ? change.range.start.line : -1)));
    const queued = pending.get(uri);
    if (queued) {
      queued.offsets = queued.offsets && offsets ? [...queued.offsets, ...offsets] : undefined;
      queued.changes.push(...contentChanges);
      queued.version = version;
      queued.firstLine = Math.min(queued.firstLine, firstLine);
    } else {
      const since = clock.now();
      const batch: Batch = { changes: [...contentChanges], offsets, version, firstLine, timer: clock.setTimer(modelUpdateDelayMs, () => applyWhenQuiet(uri, since)) };
      pending.set(uri, batch);
    }
    edited(uri);
  });
  connection.onDidCloseTextDocument(({ textDocument }) => {
    if (!isFileUri(textDocument.uri)) return;
    cancelPending(textDocument.uri);
    const closedLength = latest.get(textDocument.uri)?.getText().length ?? 0;
    latest.delete(textDocument.uri);
    lastRequest.delete(textDocument.uri);
    parseCost.delete(textDocument.uri);
    slowParses.delete(textDocument.uri);
    const closed = folders.withModel(textDocument.uri, (model) => {
      applied.delete(textDocument.uri);
      handed.delete(textDocument.uri);
      return model.closeDocument(textDocument.uri);
    });
    void closed
      .then(() => folders.releaseIfOutside(textDocument.uri))
      .catch(() => undefined) // the model reports its own failures; the memory is given back either way
      .then(() => {
        // A large document's texts are garbage now: give the memory back instead of whenever V8 gets to it.
        if (closedLength >= largeDocumentLength) collectGarbageSoon();
        try {
          onClosed?.();
        } catch {
          // a listener's failure must not stop the sync
        }
      });
  });
  const fileChanged = (change: FileEvent) => {
    if (folderOfFile(localPathOf(change.uri))) edited(change.uri);
    if (change.type === FileChangeType.Deleted) {
      // A deleted file of an unknown folder needs no model.
      if (folders.modelFor(change.uri)) void folders.withModel(change.uri, (model) => model.fileDeleted(change.uri));
    } else void folders.withModel(change.uri, (model) => model.fileChanged(change.uri));
  };
  // From the client (when it watches) or from the server's own DiskWatcher (when it cannot): the same path.
  const watchedFilesChanged = (changes: readonly FileEvent[]) => {
    for (const change of changes) {
      if (!isFileUri(change.uri)) continue;
      const changedPath = localPathOf(change.uri);
      if (isWatchedFile(changedPath)) fileChanged(change);
      else if (change.type === FileChangeType.Deleted) {
        // Something else deleted (the client's folder watcher, folderWatcher): if it was a folder, the files the
        // models knew below it went with it, and a client reports only the folder.
        void goneFilesBelow([changedPath], { knownFilesUnder: (folder) => folders.knownFilesUnder(folder) }).then((gone) => gone.forEach(fileChanged));
      } else if (change.type === FileChangeType.Created && mayHoldModuleFolders(changedPath, folders.rootOf(changedPath))) {
        // Something else created: if it is a folder, its model files may have come with it unreported.
        void newFilesBelow([changedPath], () => undefined).then((created) => created.forEach(fileChanged));
      }
    }
  };
  connection.onDidChangeWatchedFiles(({ changes }) => watchedFilesChanged(changes));
  return {
    watchedFilesChanged,
    get(uri) {
      requestRead(uri);
      const open = latest.get(uri);
      if (open) return open;
      const text = folders.modelFor(uri)?.openText(uri);
      return text === undefined ? undefined : { getText: () => text, version: applied.get(uri) ?? 0 };
    },
    modelVersion: (uri) => applied.get(uri),
    async whenCurrent(uri, line) {
      requestRead(uri);
      // Lines above the first changed one are where they were: the model answers for them as it is.
      const below = (firstLine: number) => line === undefined || line >= firstLine;
      // A parse a newer change stopped leaves that change to apply and parse: a few rounds, not for ever while the
      // user types on (the request then answers from the model as it is).
      for (let round = 0; round < maxCatchUpRounds; round++) {
        const batch = pending.get(uri);
        const waiting = deferred.get(uri);
        const underWay = parsing.get(uri);
        if (batch && below(batch.firstLine)) await applyPending(uri);
        else if (waiting && below(waiting.firstLine)) await parseDeferred(uri);
        else if (underWay && below(underWay.firstLine)) await underWay.done;
        else return;
      }
    },
  };
}

/** Removes a document's entry and stops its timer; returns the entry (undefined when there was none). */
function takeTimed<T extends { timer: TimerHandle }>(entries: Map<string, T>, uri: string): T | undefined {
  const entry = entries.get(uri);
  entry?.timer.cancel();
  entries.delete(uri);
  return entry;
}

function isFileUri(uri: string): boolean {
  return uri.startsWith('file:');
}

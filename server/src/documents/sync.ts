// Text document sync (incremental) into the code models, and watched files for everything not open in the editor
// (watchedFileChanges.ts). Open-document text beats disk; a file's disk changes are ignored by its model while it is
// open. Here: the open documents' changes, from the editor to the model. Opening and closing one is openAndClose.ts,
// how its changes gather into one batch changeBatches.ts, the delays syncTiming.ts.
import type { Connection, FileEvent } from 'vscode-languageserver';
import { queueChanges } from './changeBatches';
import { localPathOf } from '../model/filePaths';
import { closeDocument, openDocument } from './openAndClose';
import { isFileUri, newSyncState, takeTimed } from './syncState';
import { burstParseDelay, heavyParseMs, maxQuietWaitMs, parseDelay, quietMs, realClock, verifyDelayMs } from './syncTiming';
import type { SyncClock } from './syncTiming';
import { watchedFileChanges } from './watchedFileChanges';
import type { ModuleFolders } from './moduleFolders';
import type { ChangeOffsets, TextLines } from '../model';

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
  // whole file parsed waits a little longer (wholeParseDelay). What each of these holds: syncState.ts.
  const state = newSyncState();
  const { latest, applied, handed, pending, deferred, unverified, parseCost, slowParses, parsing, lastRequest } = state;
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
      deferred.set(uri, { firstLine: Math.min(firstLine, earlier?.firstLine ?? Infinity), since: earlier?.since ?? clock.now(), timer: clock.setTimer(parseDelay(slowParses, parseCost, uri), () => void parseDeferred(uri)) });
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
        const delay = burstParseDelay(slowParses, parseCost, uri, since, clock);
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
  connection.onDidOpenTextDocument(({ textDocument }) => {
    if (!isFileUri(textDocument.uri)) return;
    openDocument(state, folders, textDocument, parseWaiting);
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
    queueChanges(pending, uri, contentChanges, offsets, version, clock, applyWhenQuiet);
    edited(uri);
  });
  connection.onDidCloseTextDocument(({ textDocument }) => {
    if (!isFileUri(textDocument.uri)) return;
    closeDocument(state, folders, textDocument.uri, onClosed);
  });
  // From the client (when it watches) or from the server's own DiskWatcher (when it cannot): the same path.
  const watchedFilesChanged = watchedFileChanges(folders, edited);
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

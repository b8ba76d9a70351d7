// What the document sync keeps per open document: its latest text, the versions handed to and applied by the model,
// the changes and whole-file parses waiting, and what its last parses cost. Apart from sync.ts because the open and
// close handling (openAndClose.ts) starts and ends what sync.ts keeps up in between, and a close must clear all of it.
import type { TimerHandle } from '../workspaces/timers';
import type { Batch } from './changeBatches';
import type { LatestText } from './latestText';

export interface SyncState {
  /**
   * Each open document's latest text and version as the client sent them. LatestText updates its line offsets by
   * the edit (a shift of the lines after it), not by a new scan of the text.
   */
  latest: Map<string, LatestText>;
  /** The version the model has applied. */
  applied: Map<string, number>;
  /**
   * The version of the text last handed to the model (opened, or a batch of changes, whatever the model did with it).
   * A whole-file parse answers for this version, not for the one that made it wait: the parse can run after a newer
   * batch reached the model (both wait on the folder's queue), and then it parsed that batch's text too.
   */
  handed: Map<string, number>;
  /** The changes waiting for the model, one batch per document. */
  pending: Map<string, Batch>;
  /** Documents whose model waits for a whole-file parse: the first line it changes, and when it started waiting. */
  deferred: Map<string, { firstLine: number; since: number; timer: TimerHandle }>;
  /** Documents whose facts were read from a broken block alone: the whole-file parse that confirms them, timed. */
  unverified: Map<string, { timer: TimerHandle }>;
  /** How long each open document's last whole-file parse took (ms). */
  parseCost: Map<string, number>;
  /**
   * Documents whose last whole-file parse was slow: it took over `heavyParseMs`, or a change stopped it (it was
   * slower than the typing). Their next one waits for the typing to pause.
   */
  slowParses: Set<string>;
  /** Whole-file parses under way that requests below `firstLine` wait for (the facts there are out of date until it ends). */
  parsing: Map<string, { firstLine: number; done: Promise<unknown> }>;
  /** When a request last read each open document (completion, hover, code actions, lenses ask for it). */
  lastRequest: Map<string, number>;
}

export function newSyncState(): SyncState {
  return {
    latest: new Map(),
    applied: new Map(),
    handed: new Map(),
    pending: new Map(),
    deferred: new Map(),
    unverified: new Map(),
    parseCost: new Map(),
    slowParses: new Set(),
    parsing: new Map(),
    lastRequest: new Map(),
  };
}

/** Removes a document's entry and stops its timer; returns the entry (undefined when there was none). */
export function takeTimed<T extends { timer: TimerHandle }>(entries: Map<string, T>, uri: string): T | undefined {
  const entry = entries.get(uri);
  entry?.timer.cancel();
  entries.delete(uri);
  return entry;
}

/** Drops whatever waits for the model (the text the editor sends next replaces it). */
export function cancelPending(state: SyncState, uri: string): void {
  takeTimed(state.pending, uri);
  takeTimed(state.deferred, uri);
  takeTimed(state.unverified, uri);
}

/** Whether the sync keeps the document: `file:` URIs only. */
export function isFileUri(uri: string): boolean {
  return uri.startsWith('file:');
}

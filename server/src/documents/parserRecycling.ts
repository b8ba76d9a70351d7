// Gives the parser's memory back once the large trees that grew it are gone. A WebAssembly memory only grows: a
// 1 MB file's syntax tree takes ~64 MB of it, its whole-file re-parses twice that for a moment, and after the file
// closes those pages stay with the server (bench: ~375 MB resident after closing the 1 MB file, ~600 MB after a
// 4 MB one). When the parser holds far more than the open documents' trees can need, and the user has stopped
// typing, the parser starts a fresh runtime, parses the open documents' trees again there, and lets the old one go.
import type { TerraformParser } from '../model';
import { realTimers } from '../workspaces/timers';
import type { TimerHandle } from '../workspaces/timers';
import { collectGarbageSoon } from './releaseMemory';

/** What a syntax tree costs in parser memory per character of its text, at most (measured: ~64 for dense code). */
export const treeBytesPerCharacter = 100;
/** Less than this to give back is not worth parsing the open documents again. */
export const minimumReclaimBytes = 32 * 1024 * 1024;
/** A check waits until the documents have had no edit for this long: re-parsing them must not meet a keystroke. */
export const recycleIdleMs = 1000;

/** How much of the parser's memory a fresh runtime would not need, given the text of the trees kept (0: keep it). */
export function reclaimableBytes(heapBytes: number, freshHeapBytes: number, heldCharacters: number): number {
  const needed = freshHeapBytes + heldCharacters * treeBytesPerCharacter;
  // Twice what is needed: a kept tree's whole-file re-parse holds two trees for a moment, which is no waste.
  return heapBytes >= 2 * needed && heapBytes - needed >= minimumReclaimBytes ? heapBytes - needed : 0;
}

/** The models whose kept trees the parser holds (ModuleFolderModel). */
export interface TreeHolder {
  heldTreeText(): number;
  reparseTrees(): void | Promise<void>;
}

export interface ParserRecyclingOptions {
  parser: Promise<TerraformParser>;
  holders(): Iterable<TreeHolder>;
  log(message: string): void;
  clock?: { now(): number; setTimer(ms: number, callback: () => void): TimerHandle };
  /** Runs once the old runtime is let go (the server: a full garbage collection, which frees its memory). */
  released?(): void;
}

export class ParserRecycling {
  private lastEdit = -Infinity;
  private timer: TimerHandle | undefined;
  private running: Promise<void> | undefined;
  private readonly clock: NonNullable<ParserRecyclingOptions['clock']>;
  private readonly listeners = new Set<(reclaimedBytes: number) => void>();

  constructor(private readonly options: ParserRecyclingOptions) {
    this.clock = options.clock ?? realTimers;
  }

  /** A document changed: a check waits for the typing to pause. */
  noteEdit(): void {
    this.lastEdit = this.clock.now();
  }

  /** Trees were let go (a document closed): checks once the documents have had no edit for recycleIdleMs. */
  checkSoon(): void {
    this.timer ??= this.clock.setTimer(recycleIdleMs, () => this.checkWhenIdle());
  }

  /** Hears each recycle, with the bytes it was expected to give back. */
  onRecycled(listener: (reclaimedBytes: number) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  dispose(): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.listeners.clear();
  }

  private checkWhenIdle(): void {
    const quietFor = this.clock.now() - this.lastEdit;
    if (quietFor < recycleIdleMs) {
      this.timer = this.clock.setTimer(recycleIdleMs - quietFor, () => this.checkWhenIdle());
      return;
    }
    this.timer = undefined;
    // One at a time: a check while a recycle runs would measure the old heap and report the same memory twice.
    this.running ??= this.recycleIfWorthIt()
      .catch((error: unknown) => {
        // The old runtime stays in use: nothing is lost but the memory.
        this.options.log(`Could not start a fresh parser runtime to give memory back: ${error instanceof Error ? error.message : String(error)}`);
      })
      .finally(() => (this.running = undefined));
  }

  private async recycleIfWorthIt(): Promise<void> {
    const parser = await this.options.parser;
    let held = 0;
    for (const holder of this.options.holders()) held += holder.heldTreeText();
    const reclaimable = reclaimableBytes(parser.heapBytes(), parser.freshHeapBytes, held);
    if (reclaimable === 0) return;
    // The holders are asked again at the switch: a document opened while the runtime loaded is parsed there too.
    await parser.recycle(async () => {
      for (const holder of this.options.holders()) await holder.reparseTrees();
    });
    (this.options.released ?? (() => void collectGarbageSoon()))();
    this.options.log(`Parser memory: started a fresh runtime, giving back about ${Math.round(reclaimable / 1048576)} MB.`);
    for (const listener of this.listeners) listener(reclaimable);
  }
}

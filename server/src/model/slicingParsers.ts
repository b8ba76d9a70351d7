// The parsers of parses in slices (TerraformParser.parseInSlices), for one WebAssembly runtime. tree-sitter resumes
// a stopped parse on its parser's next call, whatever text that call reads, so each parse under way has a parser of
// its own (documents of two folders can be parsed at once), and a parser whose parse stopped half-done is reset
// before it serves another. Not when it stopped: that is right after a change came in, before the requests sent
// with it, and resetting a large broken file's half-done parse takes 0.3-4 ms. It is reset when it is next taken,
// or once it has been idle for `stoppedParserResetMs`, so that the half-done parse's memory (and the old tree it
// holds) is not kept for long.
import type { Parser } from './treeSitter';

export const stoppedParserResetMs = 1000;

/** Runs `callback` after `ms` (the real timers in the server; a test passes its own). Returns how to cancel it. */
export type ScheduleReset = (ms: number, callback: () => void) => () => void;

const realTimer: ScheduleReset = (ms, callback) => {
  const timer = setTimeout(callback, ms);
  timer.unref?.();
  return () => clearTimeout(timer);
};

interface IdleParser {
  parser: Parser;
  /** Its parse stopped half-done and it has not been reset since. */
  stopped: boolean;
  cancelReset?: () => void;
}

export class SlicingParsers {
  private readonly idle: IdleParser[] = [];
  private disposed = false;

  constructor(
    private readonly create: () => Parser,
    private readonly schedule: ScheduleReset = realTimer,
  ) {}

  /** A parser for one parse in slices, with no parse half-done in it. */
  take(): Parser {
    const entry = this.idle.pop();
    if (!entry) return this.create();
    entry.cancelReset?.();
    if (entry.stopped) entry.parser.reset();
    return entry.parser;
  }

  /** Gives back a parser `take` gave; `stopped` when its parse stopped half-done. */
  give(parser: Parser, stopped: boolean): void {
    if (this.disposed) {
      parser.delete();
      return;
    }
    const entry: IdleParser = { parser, stopped };
    if (stopped) {
      // Taking the parser or disposing of the pool cancels this: when it runs, the parser is idle and still stopped.
      entry.cancelReset = this.schedule(stoppedParserResetMs, () => {
        entry.cancelReset = undefined;
        entry.parser.reset();
        entry.stopped = false;
      });
    }
    this.idle.push(entry);
  }

  /** Deletes the idle parsers (their runtime is let go); the ones in use are deleted when given back. */
  dispose(): void {
    this.disposed = true;
    for (const entry of this.idle.splice(0)) {
      entry.cancelReset?.();
      entry.parser.delete();
    }
  }
}

// The extension's own activation clock (#13: activation ≤ 100 ms). extension.ts imports this module FIRST and it
// imports nothing, so its top level is the first code of the bundle to run: `moduleStart` marks the start of the
// bundle's evaluation. What VS Code spends reading and compiling dist/client.js before that is not seen here (VS Code's
// own "code loading" time, shown by Developer: Show Running Extensions, includes it).
//
// Counted as activation: the bundle's evaluation (every module's top level) and activate() up to the point it hands
// back control, i.e. what blocks the extension host and what VS Code shows as the extension's "Activation". Not
// counted: the language server's start (a child process, then its initialize), which runs after activate() has
// returned and is reported on its own.
const moduleStart = performance.now();

export interface ActivationTiming {
  /** The bundle's evaluation: from its first statement to the end of extension.ts's top level. */
  moduleEvaluationMs: number;
  /** activate() from entry to the moment it hands control back (its synchronous part). */
  activateMs: number;
  /** Both: what the user waits for before the extension is active. */
  activationMs: number;
  /** From activate()'s entry to the language server answering initialize; undefined until then (or if it failed). */
  serverStartMs?: number;
}

let moduleEvaluated: number | undefined;
let activateEntered: number | undefined;
let activateReturned: number | undefined;
let serverStarted: number | undefined;

const elapsed = (from: number | undefined, to: number | undefined) => (from === undefined || to === undefined ? undefined : round(to - from));
const round = (ms: number) => Math.round(ms * 10) / 10;

export const activationClock = {
  moduleEvaluated(): void {
    moduleEvaluated ??= performance.now();
  },
  activateEntered(): void {
    activateEntered = performance.now();
  },
  activateReturned(): void {
    activateReturned = performance.now();
  },
  serverStarted(): void {
    // Only the first start belongs to activation; a restart later (a setting changed) is not re-timed.
    serverStarted ??= performance.now();
  },
  /** The figures so far; undefined before activate() has returned. */
  timing(): ActivationTiming | undefined {
    const moduleEvaluationMs = elapsed(moduleStart, moduleEvaluated);
    const activateMs = elapsed(activateEntered, activateReturned);
    if (moduleEvaluationMs === undefined || activateMs === undefined) return undefined;
    return { moduleEvaluationMs, activateMs, activationMs: round(moduleEvaluationMs + activateMs), serverStartMs: elapsed(activateEntered, serverStarted) };
  },
};

/** The line the output channel gets once activate() has returned. */
export function describeActivation(timing: ActivationTiming): string {
  return `activated in ${timing.activationMs} ms (module evaluation ${timing.moduleEvaluationMs} ms, activate() ${timing.activateMs} ms; the language server starts after)`;
}

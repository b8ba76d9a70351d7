// A normal cancel reaches the running Terraform as the worker's SIGINT (spec §3: "running process gets an interrupt
// signal to stop safely"). Terraform keeps what it has already written, says "Interrupt received", lets the resource
// operations in flight finish, starts no new one, and stops with "Error: execution halted", never "Apply complete!".
// The state it saves holds every operation that completed. A force-cancel kills the process instead: it writes nothing
// more and only what was done before the interrupt is saved (the spec: it "can lose in-flight state").
import type { Store } from '../store/store';
import { findingLines } from './configurationCheck';
import { executionHalted, plainInterruptLines, visibleLineCount } from './logs';
import type { ApplyOperation, RunRecord } from './model';
import { recordAppliedChanges } from './appliedChanges';
import type { RunRecords } from './records';
import { structuredHaltedLines, structuredInterruptLines } from './structuredLogs';

/** The cancel reached the process planning or applying `run` at `atMs`: its log stops there and says so. */
export function interruptRun(run: RunRecord, records: RunRecords, atMs: number): void {
  const applying = run.status === 'applying';
  const log = applying ? records.apply(run).log : records.plan(run).log;
  const structured = records.plan(run).structuredRunOutput === true;
  const at = new Date(atMs);
  const written = visibleLineCount(log, atMs);
  const operations = applying ? records.apply(run).operations : [];
  const inFlight = operations.filter((operation) => operation.startLine < written && operation.completeLine >= written);
  run.interruption = {
    completed: operations.filter((operation) => operation.completeLine < written),
    inFlight,
    closingLines: [...inFlight.map((operation) => log.lines[operation.completeLine]!), ...(structured ? structuredHaltedLines(at) : findingLines(executionHalted))],
  };
  log.lines = [...log.lines.slice(0, written), ...(structured ? structuredInterruptLines(at) : plainInterruptLines)];
  // Everything up to the notice is out now; the rest of the log is what the process writes as it stops.
  log.expectedMs = 0;
}

/** The interrupted process is gone (the run is `canceled`): its last lines, and the state of what it did. */
export function endInterruption(run: RunRecord, store: Store, records: RunRecords, forced: boolean, at: Date): void {
  const interruption = run.interruption;
  if (!interruption) return;
  const apply = records.apply(run);
  const log = apply.status === 'running' ? apply.log : records.plan(run).log;
  if (!forced) log.lines.push(...interruption.closingLines);
  const done = forced ? interruption.completed : [...interruption.completed, ...interruption.inFlight];
  if (done.length === 0) return;
  Object.assign(apply, countOperations(done));
  recordAppliedChanges({ store, records, run, changes: done.map(changeDone), complete: false, at });
}

/**
 * What an operation did to the state: the destroy half of a replacement removes the instance until its create; with
 * create_before_destroy the create came first, and the destroy half only takes the old object away.
 */
function changeDone(operation: ApplyOperation) {
  if (operation.action === 'delete' && operation.change.action === 'replace' && !operation.change.createBeforeDestroy) return { address: operation.change.address, action: 'delete' as const };
  return operation.change;
}

function countOperations(operations: ApplyOperation[]) {
  const count = (...actions: string[]) => operations.filter((operation) => actions.includes(operation.action)).length;
  return { resourceAdditions: count('create', 'replace'), resourceChanges: count('update'), resourceDestructions: count('delete', 'replace'), resourceImports: 0 };
}

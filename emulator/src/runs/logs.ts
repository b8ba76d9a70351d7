// Plan and apply output that reads like the real thing (resource lines, the "Plan: N to add…" summary), and
// how much of it is visible at a given moment: a phase's output appears line by line over its duration, so a
// client following the log-read-url sees it grow, then the ETX byte once the phase is over (notes §5.4).
import { deleteReasonLine } from './deleteReasonLine';
import type { ApplyOperation, LogRecord, PlannedChange, RunRecord, UnchangedInstance } from './model';
import { compareAddresses, parseAddress } from './address';
import { attributeLines } from './attributeLines';
import { countChanges } from './changes';
import { findingLines, type ConfigurationFinding } from './configurationCheck';
import { outputLines } from './outputText';
import type { StateOutputs } from './stateWrite';

const STX = '\u0002';
const ETX = '\u0003';

export interface PlanLogInputs {
  run: RunRecord;
  engineVersion: string;
  changes: PlannedChange[];
  errors: boolean;
  /** Whether the refresh-only plan found drift (the workspace's plan outcome says so). */
  drift: boolean;
  /** What the configuration check found; any error fails the plan with Terraform's diagnostics. */
  findings?: ConfigurationFinding[];
}

export function planLogLines({ run, engineVersion, changes, errors, drift, findings = [] }: PlanLogInputs): string[] {
  const lines = [`Terraform v${engineVersion}`, 'on linux_amd64', 'Initializing plugins and modules...'];
  if (run.debuggingMode) lines.push('[TRACE] debugging mode: TF_LOG=TRACE for this run');
  if (run.planOnly) lines.push('', 'This is a speculative plan: it cannot be applied.');
  if (run.variables.length > 0) {
    // Keys only: run variable values may be secrets and logs are readable by anyone holding the URL.
    lines.push(`Run variables set: ${run.variables.map((v) => v.key).join(', ')}`);
  }
  if (run.refresh || run.refreshOnly) {
    for (const change of changes.filter((c) => c.action !== 'create')) {
      lines.push(`${change.address}: Refreshing state... [id=${fakeId(change.address)}]`);
    }
  }
  lines.push('');
  for (const finding of findings.filter((f) => f.severity === 'warning')) lines.push(...findingLines(finding));
  const failures = findings.filter((f) => f.severity === 'error');
  if (failures.length > 0) {
    for (const finding of failures) lines.push(...findingLines(finding));
    lines.push('Operation failed: failed running terraform plan (exit 1)');
    return lines;
  }
  if (errors) {
    lines.push(
      '╷',
      '│ Error: Invalid value for input variable',
      '│',
      '│ The configuration could not be planned: a required input variable has no value',
      '│ or a value does not fit its declared type. Check the workspace variables.',
      '╵',
    );
    return lines;
  }
  if (run.refreshOnly) {
    // The moves are drift here (a refresh-only plan has no changes to draw them among), each drawn as in a plan, in
    // the plan JSON's address order; then the refresh-only note (internal/command/jsonformat/plan.go renderHumanDiffDrift).
    const moved = [...(run.drifted ?? [])].sort((a, b) => compareAddresses(a.address, b.address));
    if (drift || moved.length > 0) {
      lines.push(
        'Note: Objects have changed outside of Terraform',
        '',
        'Terraform detected the following changes made outside of Terraform since the',
        'last "terraform apply" which may have affected this plan:',
        '',
        ...moved.flatMap((instance) => [...movedBlock(instance), '']),
        '',
        'This is a refresh-only plan, so Terraform will not take any actions to undo',
        'these. If you were expecting these changes then you can apply this plan to',
        'record the updated values in the Terraform state without changing any remote',
        'objects.',
      );
    } else {
      lines.push('No changes. Your infrastructure still matches the configuration.');
    }
    return lines;
  }
  // Instances a `moved` block renamed and the plan otherwise leaves alone: shown as moves, not counted.
  const movedOnly = (run.unchanged ?? []).filter((instance) => instance.previousAddress);
  if (changes.length === 0 && movedOnly.length === 0) {
    lines.push(
      'No changes. Your infrastructure matches the configuration.',
      '',
      'Terraform has compared your real infrastructure against your configuration',
      'and found no differences, so no changes are needed.',
    );
    return lines;
  }
  if (changes.length > 0) {
    lines.push('Terraform used the selected providers to generate the following execution', 'plan. Resource actions are indicated with the following symbols:', ...legend(changes), '');
  }
  lines.push('Terraform will perform the following actions:', '');
  // In the plan JSON's order (by address, moves among the changes), which Terraform's renderer draws from.
  const blocks = [...changes.map((change) => ({ address: change.address, block: changeBlock(change) })), ...movedOnly.map((instance) => ({ address: instance.address, block: movedBlock(instance) }))];
  for (const { block } of blocks.sort((a, b) => compareAddresses(a.address, b.address))) lines.push(...block, '');
  const counts = countChanges(changes);
  lines.push(`Plan: ${counts.additions} to add, ${counts.changes} to change, ${counts.destructions} to destroy.`);
  return lines;
}

/** An apply's log and the resource operations it narrates (where each starts and completes in it). */
export interface ApplyLog {
  lines: string[];
  operations: ApplyOperation[];
}

/** `outputs`: the root outputs the state holds after this apply, printed after the summary as Terraform does. */
export function applyLogLines(run: RunRecord, engineVersion: string, outputs: StateOutputs): ApplyLog {
  const lines = [`Terraform v${engineVersion}`, 'on linux_amd64', 'Initializing plugins and modules...', ''];
  const operations: ApplyOperation[] = [];
  // Forgetting an object only drops it from the state: Terraform narrates no operation for it.
  for (const change of run.changes) {
    if (change.action === 'forget') continue;
    const verb = { create: 'Creating', update: 'Modifying', delete: 'Destroying', replace: 'Replacing' }[change.action];
    const done = { create: 'Creation', update: 'Modifications', delete: 'Destruction', replace: 'Replacement' }[change.action];
    operations.push({ change, action: change.action, startLine: lines.length, completeLine: lines.length + 1 });
    lines.push(`${change.address}: ${verb}...`);
    lines.push(`${change.address}: ${done} complete after ${2 + (change.address.length % 9)}s [id=${fakeId(change.address)}]`);
  }
  const counts = countChanges(run.changes);
  lines.push('');
  if (run.isDestroy) lines.push(`Destroy complete! Resources: ${counts.destructions} destroyed.`);
  else lines.push(`Apply complete! Resources: ${counts.additions} added, ${counts.changes} changed, ${counts.destructions} destroyed.`);
  lines.push(...outputLines(outputs));
  return { lines, operations };
}

/** What Terraform prints when interrupted (internal/command/views/operation.go `interrupted`). */
export const interruptLines = [
  '',
  'Interrupt received.',
  'Please wait for Terraform to exit or data loss may occur.',
  'Gracefully shutting down...',
];

/** The plain text of an interrupt: the notice, then the local backend's `Stopping operation...`. */
export const plainInterruptLines = [...interruptLines, '', 'Stopping operation...'];

/** The error a walk halted by an interrupt ends with (internal/terraform/hook_stop.go). */
export const executionHalted: ConfigurationFinding = { severity: 'error', summary: 'execution halted', detail: '' };

/** How many of a log's lines a reader may see at `nowMs`: they appear in proportion to the phase's expected length. */
export function visibleLineCount(log: LogRecord, nowMs: number): number {
  if (log.startedAtMs === null) return 0;
  if (log.complete) return log.lines.length;
  const elapsed = Math.max(0, nowMs - log.startedAtMs);
  const fraction = log.expectedMs > 0 ? Math.min(1, elapsed / log.expectedMs) : 1;
  return Math.floor(log.lines.length * fraction);
}

/** The part of a log a reader may see at `nowMs`, framed with STX (and ETX once the phase is over). */
export function visibleLog(log: LogRecord, nowMs: number): string {
  if (log.startedAtMs === null) return log.complete ? `${STX}${ETX}` : '';
  const text = log.lines.slice(0, visibleLineCount(log, nowMs)).map((line) => `${line}\n`).join('');
  return `${STX}${text}${log.complete ? ETX : ''}`;
}

/** `offset`/`limit` over the visible text, in bytes, as go-tfe's LogReader asks for it. */
export function sliceLog(text: string, offset: number, limit: number | undefined): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const end = limit === undefined ? bytes.length : Math.min(bytes.length, offset + limit);
  return bytes.subarray(Math.min(offset, bytes.length), end);
}

function legend(changes: PlannedChange[]): string[] {
  const actions = new Set(changes.map((c) => c.action));
  const lines: string[] = [];
  if (actions.has('create')) lines.push('  + create');
  if (actions.has('update')) lines.push('  ~ update in-place');
  if (actions.has('delete')) lines.push('  - destroy');
  if (changes.some((c) => c.action === 'replace' && !c.createBeforeDestroy)) lines.push('-/+ destroy and then create replacement');
  if (changes.some((c) => c.action === 'replace' && c.createBeforeDestroy)) lines.push('+/- create replacement and then destroy');
  return lines;
}

/** `# a has moved to b` and the object, unchanged (internal/command/jsonformat/plan.go resourceChangeComment). */
function movedBlock(instance: UnchangedInstance): string[] {
  const parsed = parseAddress(instance.address);
  const attributes = attributeLines({ address: instance.address, action: 'update', before: instance.attributes, after: instance.attributes, sensitive: instance.sensitive });
  return [`  # ${instance.previousAddress} has moved to ${instance.address}`, `    resource "${parsed?.type}" "${parsed?.name}" {`, ...attributes, '    }'];
}

function changeBlock(change: PlannedChange): string[] {
  const [heading, ...rest] = changeBlockOf(change);
  // Under the heading: why a delete happens, then where a `moved` block renamed the instance from (Terraform's order).
  const reason = deleteReasonLine(change);
  return [heading!, ...(reason ? [reason] : []), ...(change.previousAddress ? [`  # (moved from ${change.previousAddress})`] : []), ...rest];
}

function changeBlockOf(change: PlannedChange): string[] {
  const { address, action } = change;
  const [type, name] = splitAddress(address);
  if (action === 'forget') {
    // Terraform's own wording and its one-space indent (internal/command/jsonformat/plan.go resourceChangeComment);
    // the object is drawn unchanged (its id, the rest hidden), as the CLI draws it.
    const parsed = parseAddress(address);
    const heading = [` # ${address} will no longer be managed by Terraform, but will not be destroyed`, ' # (destroy = false is set in the configuration)'];
    return [...heading, ` . resource "${parsed?.type ?? type}" "${parsed?.name ?? name}" {`, ...attributeLines({ ...change, action: 'update', after: change.before ?? null }), '    }'];
  }
  if (change.after !== undefined) {
    const parsed = parseAddress(address);
    const heading = { create: 'will be created', update: 'will be updated in-place', delete: 'will be destroyed', replace: 'must be replaced' }[action];
    const symbol = { create: '  +', update: '  ~', delete: '  -', replace: change.createBeforeDestroy ? '+/-' : '-/+' }[action];
    return [`  # ${address} ${heading}`, `${symbol} resource "${parsed?.type ?? type}" "${parsed?.name ?? name}" {`, ...attributeLines(change), '    }'];
  }
  switch (action) {
    case 'create':
      return [
        `  # ${address} will be created`,
        `  + resource "${type}" "${name}" {`,
        '      + arn  = (known after apply)',
        '      + id   = (known after apply)',
        `      + tags = {`,
        `          + "Name" = "${name}"`,
        '        }',
        '    }',
      ];
    case 'update':
      return [
        `  # ${address} will be updated in-place`,
        `  ~ resource "${type}" "${name}" {`,
        `        id   = "${fakeId(address)}"`,
        '      ~ tags = {',
        '          ~ "Revision" = "1" -> "2"',
        '        }',
        '    }',
      ];
    case 'delete':
      return [
        `  # ${address} will be destroyed`,
        `  - resource "${type}" "${name}" {`,
        `      - id = "${fakeId(address)}" -> null`,
        '    }',
      ];
    case 'replace':
      return [
        `  # ${address} will be replaced, as requested`,
        `-/+ resource "${type}" "${name}" {`,
        `      ~ id = "${fakeId(address)}" -> (known after apply)`,
        '    }',
      ];
  }
}

function splitAddress(address: string): [string, string] {
  const bare = address.replace(/\[\d+\]$/, '');
  const dot = bare.indexOf('.');
  return dot < 0 ? [bare, 'this'] : [bare.slice(0, dot), bare.slice(dot + 1)];
}

/** A stable, realistic-looking resource id derived from the address (same address, same id, every run). */
function fakeId(address: string): string {
  let hash = 2166136261;
  for (const char of address) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return `i-0${hash.toString(16).padStart(8, '0')}${(hash >>> 7).toString(16).slice(0, 8)}`;
}

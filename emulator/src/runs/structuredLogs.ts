// Plan and apply logs as the service writes them when a workspace has structured run output on: a few plain lines
// from the worker, then the JSON lines of Terraform's `-json` UI. The CLI renders each line it can parse (and
// draws the plan itself from json-output-redacted); the extension's log documents show their `@message`.
import { countChanges } from './changes';
import { compareAddresses, parseAddress, impliedProvider } from './address';
import { generatedId, idOnCreate } from './changeValues';
import type { ConfigurationFinding } from './configurationCheck';
import { executionHalted, interruptLines, type ApplyLog } from './logs';
import type { ApplyOperation, PlannedChange, RunRecord } from './model';
import { typeOf } from '../store/valueType';
import type { StateOutputs } from './stateWrite';

export interface StructuredPlanInputs {
  run: RunRecord;
  changes: PlannedChange[];
  /** The seeded outcome says the plan errors (e.g. a variable the configuration rejects). */
  errors: boolean;
  findings: ConfigurationFinding[];
  /** The instances the plan refreshes first: what the workspace's state holds. */
  refreshed: Array<{ address: string; id: string }>;
  at: Date;
}

export function workerHeader(engineVersion: string): string[] {
  return [`Terraform v${engineVersion}`, 'on linux_amd64', 'Initializing plugins and modules...'];
}

export function structuredPlanLines({ run, changes, errors, findings, refreshed, at }: StructuredPlanInputs): string[] {
  const line = uiLine(at);
  const lines = [...workerHeader(run.engineVersion), line('info', `Terraform ${run.engineVersion}`, 'version', { terraform: run.engineVersion, ui: '1.2' })];
  if (run.refresh || run.refreshOnly) {
    for (const { address, id } of refreshed) {
      const hook = { resource: resourceOf(address), id_key: 'id', id_value: id };
      lines.push(line('info', `${address}: Refreshing state... [id=${id}]`, 'refresh_start', { hook }));
      lines.push(line('info', `${address}: Refresh complete [id=${id}]`, 'refresh_complete', { hook }));
    }
  }
  for (const finding of findings.filter((f) => f.severity === 'warning')) lines.push(diagnosticLine(line, finding));
  const failures: ConfigurationFinding[] = findings.filter((f) => f.severity === 'error');
  if (errors && failures.length === 0) {
    failures.push({ severity: 'error', summary: 'Invalid value for input variable', detail: 'The configuration could not be planned: a required input variable has no value or a value does not fit its declared type. Check the workspace variables.' });
  }
  if (failures.length > 0) {
    for (const finding of failures) lines.push(diagnosticLine(line, finding));
    return [...lines, 'Operation failed: failed running terraform plan (exit 1)'];
  }
  // A refresh-only plan's moves are drift, "move" drift (internal/command/views/operation.go OperationJSON.Plan writes
  // move-only drift in refresh-only mode; views/json_view.go ResourceDrift), in the plan JSON's address order.
  for (const { address, previousAddress } of [...(run.drifted ?? [])].sort((a, b) => compareAddresses(a.address, b.address))) {
    const previous = previousAddress ? { previous_resource: resourceOf(previousAddress) } : {};
    lines.push(line('info', `${address}: Drift detected (move)`, 'resource_drift', { change: { resource: resourceOf(address), ...previous, action: 'move' } }));
  }
  // An instance a `moved` block renamed is a change of its own even when nothing else about it changes ("move").
  const movedOnly = (run.unchanged ?? []).filter((instance) => instance.previousAddress).map((instance) => ({ address: instance.address, action: 'move', previousAddress: instance.previousAddress }));
  for (const change of [...changes, ...movedOnly]) {
    const { address, action, previousAddress } = change;
    const reason = action === 'replace' && run.replaceAddrs?.includes(address) ? { reason: 'requested' } : {};
    const previous = previousAddress ? { previous_resource: resourceOf(previousAddress) } : {};
    // The JSON UI calls a forget "remove" (internal/command/views/json/change.go ActionForget).
    const uiAction = action === 'forget' ? 'remove' : action;
    lines.push(line('info', `${address}: Plan to ${uiAction}`, 'planned_change', { change: { resource: resourceOf(address), ...previous, action: uiAction, ...reason } }));
  }
  const counts = countChanges(changes);
  const summary = run.refreshOnly || changes.length + movedOnly.length === 0 ? 'No changes.' : `Plan: ${counts.additions} to add, ${counts.changes} to change, ${counts.destructions} to destroy.`;
  lines.push(line('info', summary, 'change_summary', { changes: { add: counts.additions, change: counts.changes, import: 0, remove: counts.destructions, operation: 'plan' } }));
  return lines;
}

/** `outputs`: the root outputs the state holds after this apply (its "Outputs:" line lists them all, as Terraform does). */
export function structuredApplyLines(run: RunRecord, outputs: StateOutputs, at: Date): ApplyLog {
  const line = uiLine(at);
  const lines = [...workerHeader(run.engineVersion), line('info', `Terraform ${run.engineVersion}`, 'version', { terraform: run.engineVersion, ui: '1.2' })];
  const operations: ApplyOperation[] = [];
  for (const change of run.changes) {
    // A replacement is a destroy then a create, as Terraform applies it; with create_before_destroy the other way round.
    // Forgetting drops the object from the state without an operation the UI narrates (no apply hooks).
    if (change.action === 'forget') continue;
    const steps: Array<'create' | 'update' | 'delete'> = change.action === 'replace' ? (change.createBeforeDestroy ? ['create', 'delete'] : ['delete', 'create']) : [change.action];
    for (const action of steps) {
      const resource = resourceOf(change.address);
      const id = action === 'create' ? idOnCreate(run.id, change) : idOf(change);
      const [doing, done] = { create: ['Creating...', 'Creation complete'], update: [`Modifying... [id=${id}]`, 'Modifications complete'], delete: [`Destroying... [id=${id}]`, 'Destruction complete'] }[action];
      operations.push({ change, action, startLine: lines.length, completeLine: lines.length + 1 });
      lines.push(line('info', `${change.address}: ${doing}`, 'apply_start', { hook: { resource, action, ...(action === 'create' ? {} : { id_key: 'id', id_value: id }) } }));
      const elapsed = 1 + (change.address.length % 5);
      const complete = action === 'delete' ? `${change.address}: ${done} after ${elapsed}s` : `${change.address}: ${done} after ${elapsed}s [id=${id}]`;
      lines.push(line('info', complete, 'apply_complete', { hook: { resource, action, ...(action === 'delete' ? {} : { id_key: 'id', id_value: id }), elapsed_seconds: elapsed } }));
    }
  }
  const counts = countChanges(run.changes);
  const operation = run.isDestroy ? 'destroy' : 'apply';
  const summary = run.isDestroy ? `Destroy complete! Resources: ${counts.destructions} destroyed.` : `Apply complete! Resources: ${counts.additions} added, ${counts.changes} changed, ${counts.destructions} destroyed.`;
  lines.push(line('info', summary, 'change_summary', { changes: { add: counts.additions, change: counts.changes, import: 0, remove: counts.destructions, operation } }));
  // Go writes a map's keys sorted.
  const logged = Object.fromEntries(
    Object.keys(outputs)
      .sort()
      .map((name) => {
        const { value, type, sensitive = false } = outputs[name]!;
        return [name, { sensitive, type: type ?? typeOf(value), ...(sensitive ? {} : { value }) }];
      }),
  );
  if (Object.keys(logged).length > 0) lines.push(line('info', `Outputs: ${Object.keys(logged).length}`, 'outputs', { outputs: logged }));
  return { lines, operations };
}

/**
 * What Terraform's `-json` UI writes the moment the worker interrupts it: the notice (internal/command/views/operation.go
 * `Interrupted`) and `Stopping operation...` (internal/backend/local/backend.go `opWait`), both `log` messages.
 */
export function structuredInterruptLines(at: Date): string[] {
  const line = uiLine(at);
  return [line('info', `${interruptLines.join('\n')}\n`, 'log', {}), line('info', 'Stopping operation...', 'log', {})];
}

/** Once it stopped: the error a walk halted by the interrupt returns (internal/terraform/hook_stop.go). */
export function structuredHaltedLines(at: Date): string[] {
  return [diagnosticLine(uiLine(at), executionHalted)];
}

type UiLine = (level: 'info' | 'warn' | 'error', message: string, type: string, fields: Record<string, unknown>) => string;

function uiLine(at: Date): UiLine {
  const timestamp = at.toISOString().replace('Z', '000Z');
  return (level, message, type, fields) => JSON.stringify({ '@level': level, '@message': message, '@module': 'terraform.ui', '@timestamp': timestamp, ...fields, type });
}

function diagnosticLine(line: UiLine, finding: ConfigurationFinding): string {
  const label = finding.severity === 'error' ? 'Error' : 'Warning';
  const diagnostic: Record<string, unknown> = { severity: finding.severity, summary: finding.summary, detail: finding.detail };
  if (finding.location) {
    const { file, line: at, text, context, columns } = finding.location;
    // Columns are 1-based and end-exclusive, as in Terraform's JSON ranges; the byte offsets are within the line.
    const [from, to] = columns ? [columns.start, columns.end] : [1 + text.length - text.trimStart().length, text.trimEnd().length + 1];
    diagnostic.range = { filename: file, start: { line: at, column: from, byte: from - 1 }, end: { line: at, column: to, byte: to - 1 } };
    diagnostic.snippet = { context: context ?? null, code: text, start_line: at, highlight_start_offset: from - 1, highlight_end_offset: to - 1, values: finding.values ?? [] };
    if (finding.functionCall) {
      // The CLI draws "while calling f(a, b...)" from the signature's parameter names; types are not shown.
      const { calledAs, params, variadic } = finding.functionCall;
      const param = (name: string) => ({ name, type: 'dynamic' });
      (diagnostic.snippet as Record<string, unknown>).function_call = {
        called_as: calledAs,
        signature: { params: params.map(param), ...(variadic ? { variadic_param: param(variadic) } : {}), return_type: 'dynamic' },
      };
    }
  }
  return line(finding.severity === 'error' ? 'error' : 'warn', `${label}: ${finding.summary}`, 'diagnostic', { diagnostic });
}

function resourceOf(address: string): Record<string, unknown> {
  const parsed = parseAddress(address);
  const type = parsed?.type ?? address;
  const module = parsed?.module ?? '';
  return {
    addr: address,
    module,
    resource: module ? address.slice(module.length + 1) : address,
    implied_provider: impliedProvider(type),
    resource_type: type,
    resource_name: parsed?.name ?? address,
    resource_key: parsed?.key ?? null,
  };
}

function idOf(change: PlannedChange): string {
  const id = change.before?.id;
  return typeof id === 'string' ? id : generatedId(change.address);
}

// What the Queue Plan steps produce, turned into the server command's arguments (every create-run option of the
// spec §4.2). Pure (no vscode import): unit-tested.
import type { QueuePlanArguments, WorkspacePermissionsSummary } from '../../../../server/src/protocol';

export type PlanKind = 'plan-and-apply' | 'auto-apply' | 'plan-only' | 'save-plan' | 'refresh-only' | 'destroy' | 'empty-apply';

export const planKinds: ReadonlyArray<{ kind: PlanKind; label: string; detail: string }> = [
  { kind: 'plan-and-apply', label: 'Plan and apply', detail: 'Plan, then wait for confirmation (or apply at once if the workspace auto-applies)' },
  { kind: 'auto-apply', label: 'Plan and auto-apply', detail: 'Apply as soon as the plan succeeds, without confirmation' },
  { kind: 'plan-only', label: 'Plan only', detail: 'A speculative plan: never applied' },
  { kind: 'save-plan', label: 'Save plan', detail: 'Plan and keep it; apply it later if you choose' },
  { kind: 'refresh-only', label: 'Refresh only', detail: 'Update the state from real infrastructure; change no resource' },
  { kind: 'destroy', label: 'Destroy', detail: 'Plan to destroy every resource of the workspace' },
  { kind: 'empty-apply', label: 'Empty apply', detail: 'Apply with no resource changes (e.g. to upgrade the state)' },
];

/**
 * The kinds this workspace takes from this token: no Destroy where it may not queue one (the workspace's "Allow
 * destroy plans" is off, or the token lacks apply access), which the service would only refuse as "not found"; no
 * auto-apply without apply access (`can-queue-apply`), where the run would wait for someone else's confirmation
 * all the same. Permissions not read yet leave every kind in: the service still decides.
 */
export function planKindsFor(permissions: WorkspacePermissionsSummary | undefined): typeof planKinds {
  return planKinds.filter(
    (kind) => !(kind.kind === 'destroy' && permissions?.canQueueDestroy === false) && !(kind.kind === 'auto-apply' && permissions?.canQueueApply === false),
  );
}

export interface QueuePlanChoices {
  workspaceId: string;
  hostname?: string;
  message?: string;
  kind: PlanKind;
  targetAddrs?: string[];
  replaceAddrs?: string[];
  /** Run variables: HCL values as typed (the server validates them). */
  variables?: Array<{ key: string; value: string }>;
  /** Only with plan only, as the spec says. */
  engineVersion?: string;
  /** The run options beyond the kind, each off unless picked (spec §4.2 defaults). */
  options?: RunOption[];
}

export type RunOption = 'debugging-mode' | 'no-refresh' | 'allow-config-generation';

export const runOptions: ReadonlyArray<{ option: RunOption; label: string; detail: string }> = [
  { option: 'debugging-mode', label: 'Debugging mode', detail: 'TRACE logs for this run only (as TF_LOG=TRACE)' },
  { option: 'no-refresh', label: 'Skip the refresh', detail: 'Plan from the state as it is, without reading real infrastructure first (-refresh=false)' },
  { option: 'allow-config-generation', label: 'Allow configuration generation', detail: 'An import block without its resource block generates the resource’s configuration instead of failing' },
];

/**
 * The options a kind can take: a refresh-only run is nothing but a refresh, and configuration is generated only for
 * imports, which only a run that plans changes makes.
 */
export function optionsFor(kind: PlanKind): RunOption[] {
  return runOptions
    .map(({ option }) => option)
    .filter((option) => (option === 'no-refresh' ? kind !== 'refresh-only' : option === 'allow-config-generation' ? planKindsThatImport.has(kind) : true));
}

const planKindsThatImport = new Set<PlanKind>(['plan-and-apply', 'auto-apply', 'plan-only', 'save-plan']);

/** Which later steps make sense for a kind: a refresh-only run replaces nothing, an engine version needs plan only. */
export function stepsFor(kind: PlanKind): { targets: boolean; replace: boolean; engineVersion: boolean } {
  return { targets: kind !== 'empty-apply', replace: kind !== 'refresh-only' && kind !== 'destroy' && kind !== 'empty-apply', engineVersion: kind === 'plan-only' };
}

export function queuePlanArguments(choices: QueuePlanChoices): QueuePlanArguments {
  const steps = stepsFor(choices.kind);
  const args: QueuePlanArguments = { workspaceId: choices.workspaceId };
  if (choices.hostname) args.hostname = choices.hostname;
  if (choices.message?.trim()) args.message = choices.message.trim();
  switch (choices.kind) {
    case 'auto-apply':
      args.autoApply = true;
      break;
    case 'plan-only':
      args.planOnly = true;
      break;
    case 'save-plan':
      args.savePlan = true;
      break;
    case 'refresh-only':
      args.refreshOnly = true;
      break;
    case 'destroy':
      args.isDestroy = true;
      break;
    case 'empty-apply':
      args.allowEmptyApply = true;
      break;
  }
  if (steps.targets && choices.targetAddrs?.length) args.targetAddrs = [...choices.targetAddrs];
  if (steps.replace && choices.replaceAddrs?.length) args.replaceAddrs = [...choices.replaceAddrs];
  if (choices.variables?.length) args.variables = choices.variables.map(({ key, value }) => ({ key, value }));
  if (steps.engineVersion && choices.engineVersion?.trim()) args.engineVersion = choices.engineVersion.trim();
  const options = new Set(choices.options?.filter((option) => optionsFor(choices.kind).includes(option)));
  if (options.has('debugging-mode')) args.debuggingMode = true;
  if (options.has('no-refresh')) args.refresh = false;
  if (options.has('allow-config-generation')) args.allowConfigGeneration = true;
  return args;
}

/** `key = value` → a run variable; a message saying what is wrong otherwise. The value stays as typed (HCL). */
export function parseRunVariable(text: string): { key: string; value: string } | { error: string } {
  const at = text.indexOf('=');
  if (at < 0) return { error: 'Write it as key = value (an HCL value: "text", 3, true, ["a"]).' };
  const key = text.slice(0, at).trim();
  const value = text.slice(at + 1).trim();
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) return { error: `"${key}" is not a variable name (letters, digits, _ and -, not starting with a digit).` };
  if (!value) return { error: `Give ${key} a value (an HCL value: "text", 3, true, ["a"]).` };
  return { key, value };
}

/** The summary lines shown before queueing; variable values are not repeated (they may be secrets). */
export function summarize(choices: QueuePlanChoices, workspaceName: string): string[] {
  const kind = planKinds.find((k) => k.kind === choices.kind)?.label ?? choices.kind;
  const args = queuePlanArguments(choices);
  const lines = [`${kind} in ${workspaceName}`];
  if (args.message) lines.push(`Message: ${args.message}`);
  if (args.targetAddrs) lines.push(`Targets: ${args.targetAddrs.join(', ')}`);
  if (args.replaceAddrs) lines.push(`Replace: ${args.replaceAddrs.join(', ')}`);
  if (args.variables) lines.push(`Run variables: ${args.variables.map((v) => v.key).join(', ')}`);
  if (args.engineVersion) lines.push(`Terraform version: ${args.engineVersion}`);
  const options = [args.debuggingMode && 'debugging mode', args.refresh === false && 'no refresh', args.allowConfigGeneration && 'configuration generation'].filter(Boolean);
  if (options.length) lines.push(`Options: ${options.join(', ')}`);
  return lines;
}

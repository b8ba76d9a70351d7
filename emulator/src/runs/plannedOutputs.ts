// The root module's outputs as a plan sees them: the value in the workspace's current state, and the one the
// configuration gives (absent when known only after apply), with the action Terraform plans for each. Plan JSON's
// output_changes, the run's has-changes and the apply's outputs read them.
import type { DeclaredOutput } from '../engine/configuration';
import type { TerraformState } from '../store/stateVersions';
import type { PlannedOutput } from './model';

type StateOutputs = NonNullable<TerraformState['outputs']>;

export function plannedOutputs(outputs: readonly DeclaredOutput[], current: StateOutputs): PlannedOutput[] {
  const declared = outputs.map((output): PlannedOutput => ({
    name: output.name,
    before: current[output.name]?.value ?? null,
    ...(output.value !== undefined ? { after: output.value } : {}),
    sensitive: output.sensitive || current[output.name]?.sensitive === true,
    action: outputAction(output, current[output.name]),
  }));
  // An output the state has and the configuration no longer declares is deleted (NodeDestroyableOutput).
  const names = new Set(outputs.map((output) => output.name));
  const removed = Object.entries(current)
    .filter(([name]) => !names.has(name))
    .map(([name, state]): PlannedOutput => ({ name, before: state.value, after: null, sensitive: state.sensitive === true, action: 'delete' }));
  return [...declared, ...removed];
}

/** Whether the plan changes any output: Terraform counts an output-only change as a change, and applies it. */
export function changesOutputs(outputs: readonly PlannedOutput[] | undefined): boolean {
  return (outputs ?? []).some((output) => output.action !== 'no-op');
}

/**
 * Terraform's NodeApplyableOutput.setValue: null before and after is no change (a null root output is never saved,
 * so it stays null); one the state lacks is created; a known value equal to the state's, with the same sensitivity,
 * is no change; anything else (an unknown value included) is an update.
 */
function outputAction(output: DeclaredOutput, state: StateOutputs[string] | undefined): PlannedOutput['action'] {
  const before = state?.value ?? null;
  if (output.value === null && before === null) return 'no-op';
  if (!state) return 'create';
  const same = output.value !== undefined && JSON.stringify(output.value) === JSON.stringify(before);
  return same && output.sensitive === (state.sensitive === true) ? 'no-op' : 'update';
}

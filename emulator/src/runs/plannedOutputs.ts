// The root module's outputs as a plan sees them: the value in the workspace's current state, and the one the
// configuration gives (absent when known only after apply). Plan JSON's output_changes and the apply's outputs
// log line read them.
import type { DeclaredOutput } from '../engine/configuration';
import type { TerraformState } from '../store/stateVersions';
import type { PlannedOutput } from './model';

export function plannedOutputs(outputs: readonly DeclaredOutput[], current: NonNullable<TerraformState['outputs']>): PlannedOutput[] {
  return outputs.map((output) => ({
    name: output.name,
    before: current[output.name]?.value ?? null,
    ...(output.value !== undefined ? { after: output.value } : {}),
    sensitive: output.sensitive || current[output.name]?.sensitive === true,
  }));
}

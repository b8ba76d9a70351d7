// A plan that follows the configuration, diffed against the workspace's current state whatever wrote it (a remote
// apply, `state push`, `state mv`/`rm`, `terraform import`, a migration by `terraform init`): create what the code
// declares and the state does not hold, update what it holds whose arguments evaluate to other values
// (instanceChange.ts), replace on request (or when a replacing argument such as terraform_data's trigger changed),
// destroy what the code no longer declares. A second plan after an apply has no changes. A resource with
// `lifecycle { create_before_destroy = true }` is replaced the other way round (its change says so). What a
// `removed` block with `lifecycle { destroy = false }` names is forgotten (left out of the state) instead of destroyed.
import type { TerraformParser } from '../../../server/src/model';
import type { Variable } from '../store/model';
import type { DeclaredConfiguration } from './configuration';
import { deleteReason, type DeleteReason } from './deleteReasons';
import { instanceChange, type UnknownArgumentRecords } from './instanceChange';
import { removalOf } from './refactoring';
import { VariableValueMap } from './values';
import { assignedVariables } from './variableAssignments';

export interface ConfiguredChangeInputs {
  run: { isDestroy: boolean; refreshOnly: boolean; replaceAddrs?: string[] | null };
  declared: DeclaredConfiguration;
  /** The instances of the workspace's current state by address, with their attributes. */
  state: ReadonlyMap<string, { attributes: Readonly<Record<string, unknown>> }>;
  /** What the applies that wrote them recorded of arguments the emulator could not evaluate. */
  unknownArguments: UnknownArgumentRecords;
}

export type ConfiguredChange = {
  address: string;
  action: 'create' | 'update' | 'delete' | 'replace' | 'forget';
  /** A replacement that creates the new object before destroying the old one (Terraform's CreateThenDelete). */
  createBeforeDestroy?: true;
  /** Why a delete of an instance the code no longer declares happens (Terraform's action_reason). */
  actionReason?: DeleteReason;
};

export function configuredChanges({ run, declared, state, unknownArguments }: ConfiguredChangeInputs): ConfiguredChange[] {
  if (run.refreshOnly) return [];
  if (run.isDestroy) return [...state.keys()].map((address) => ({ address, action: 'delete' }));
  const declaredAddresses = new Set(declared.instances.map((i) => i.address));
  const replace = new Set(run.replaceAddrs ?? []);
  const changes: ConfiguredChange[] = [];
  for (const instance of declared.instances) {
    const held = state.get(instance.address);
    const action = !held ? 'create' : replace.has(instance.address) ? 'replace' : instanceChange(instance, held.attributes, unknownArguments);
    if (!action) continue;
    changes.push({ address: instance.address, action, ...(action === 'replace' && instance.lifecycle?.createBeforeDestroy ? { createBeforeDestroy: true as const } : {}) });
  }
  for (const address of state.keys()) {
    if (declaredAddresses.has(address)) continue;
    if (removalOf(address, declared.removals)?.destroy === false) {
      changes.push({ address, action: 'forget' });
      continue;
    }
    const reason = declared.repetition && deleteReason(address, declared.repetition);
    changes.push({ address, action: 'delete', ...(reason ? { actionReason: reason } : {}) });
  }
  return changes;
}

/**
 * The values a plan reads for `var.*`: each root variable's value from the last source that sets it, in a remote
 * run's order (variableAssignments.ts: TF_VAR_ env variables, the configuration's tfvars files, the workspace's
 * Terraform variables, the run's variables); literals only. The map also names the workspace's sensitive variables
 * (`sensitive`), which readConfiguration picks up, so a caller passing this map on needs no second argument for them.
 */
export function variableValues(
  parser: TerraformParser,
  files: ReadonlyMap<string, Buffer>,
  workspaceVariables: readonly Variable[],
  runVariables: ReadonlyArray<{ key: string; value: string }>,
): VariableValueMap {
  const values = new VariableValueMap();
  for (const [name, { value }] of assignedVariables(parser, files, workspaceVariables, runVariables)) if (value !== undefined) values.set(name, value);
  // Marked even when its value is not a literal: what reads it must not show it.
  for (const variable of workspaceVariables) if (variable.category === 'engine' && variable.sensitive) values.sensitive.add(variable.key);
  return values;
}

/** The workspace's Terraform variables marked sensitive (for readConfiguration's `sensitiveVariables`). */
export function sensitiveVariableNames(workspaceVariables: readonly Variable[]): Set<string> {
  return new Set(workspaceVariables.filter((v) => v.category === 'engine' && v.sensitive).map((v) => v.key));
}

// What Terraform's plan walk itself reports about the changes it planned, as diagnostics in the plan's log:
// `lifecycle { prevent_destroy = true }` on an instance the plan would destroy or replace fails the plan
// (internal/terraform/node_resource_abstract_instance.go checkPreventDestroy). Only an instance the configuration
// still declares is protected: one whose block was deleted has no lifecycle left to say so, and is destroyed.
// A `moved` block whose `from` the configuration still declares is an error too (internal/refactoring/move_validate.go),
// and so is a `removed` block's (remove_statement.go). Moves blocked by an object already at their destination, and a
// plan that forgets objects (`removed` with `destroy = false`), are warnings (internal/terraform/context_plan.go).
import type { DeclaredConfiguration } from '../engine/configuration';
import type { ConfigurationFinding } from './configurationCheck';
import type { PlannedChange } from './model';
import { isModulePath, type BlockedMove } from '../engine/refactoring';

/** `blocked`: the moves ApplyMoves could not make (engine/refactoring.ts movedAddresses). */
export function planFindings(changes: readonly PlannedChange[], declared: DeclaredConfiguration, blocked: readonly BlockedMove[] = []): ConfigurationFinding[] {
  const instances = new Map(declared.instances.map((instance) => [instance.address, instance]));
  const findings: ConfigurationFinding[] = [];
  for (const change of changes) {
    const instance = instances.get(change.address);
    if (!instance?.lifecycle.preventDestroy || (change.action !== 'delete' && change.action !== 'replace')) continue;
    findings.push({
      severity: 'error',
      summary: 'Instance cannot be destroyed',
      detail: `Resource ${change.address} has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of the plan using the -target option.`,
      ...(instance.declaredAt ? { location: instance.declaredAt } : {}),
    });
  }
  findings.push(...stillDeclaredMoves(declared), ...stillDeclaredRemovals(declared));
  // Terraform leaves this warning out when the plan errors, an invalid move statement being the likelier cause.
  if (blocked.length > 0 && !findings.some((finding) => finding.severity === 'error')) findings.push(blockedMovesWarning(blocked));
  const forgotten = changes.filter((change) => change.action === 'forget');
  if (forgotten.length > 0) {
    findings.push({
      severity: 'warning',
      summary: 'Some objects will no longer be managed by Terraform',
      detail: `If you apply this plan, Terraform will discard its tracking information for the following objects, but it will not delete them:\n${forgotten.map((change) => ` - ${change.address}`).join('\n')}\n\nAfter applying this plan, Terraform will no longer manage these objects. You will need to import them into Terraform to manage them again.`,
    });
  }
  return findings;
}

/** "Removed resource still exists": a removed block naming a resource the code declares (blamed on the resource block). */
function stillDeclaredRemovals(declared: DeclaredConfiguration): ConfigurationFinding[] {
  return declared.removals.flatMap((removal) => {
    if (isModulePath(removal.from)) return [];
    const blocking = declared.instances.find((instance) => instance.address === removal.from || instance.address.startsWith(`${removal.from}[`));
    if (!blocking) return [];
    return [{
      severity: 'error' as const,
      summary: 'Removed resource still exists',
      detail: `This statement declares that ${removal.from} was removed, but it is still declared in configuration.`,
      ...(blocking.declaredAt ? { location: blocking.declaredAt } : {}),
    }];
  });
}

/** "Moved object still exists": a move away from a resource (or one instance) the code still declares. */
function stillDeclaredMoves(declared: DeclaredConfiguration): ConfigurationFinding[] {
  return declared.moves.flatMap((move) => {
    // A module call or module instance still declared is Terraform's error too; the emulator checks resources only.
    if (isModulePath(move.from)) return [];
    // `from = a.b` with `to = a.b[0]` (count added) moves the instance without a key, not the resource.
    const instance = move.from.endsWith(']') || move.to.endsWith(']');
    const blocking = declared.instances.find((candidate) => candidate.address === move.from || (!instance && candidate.address.startsWith(`${move.from}[`)));
    if (!blocking) return [];
    const [noun, shortNoun] = instance ? ['resource instance', 'instance'] : ['resource', 'resource'];
    const at = blocking.declaredAt ? ` at ${blocking.declaredAt.file}:${blocking.declaredAt.line},1` : '';
    return [{
      severity: 'error' as const,
      summary: 'Moved object still exists',
      detail: `This statement declares a move from ${move.from}, but that ${noun} is still declared${at}.\n\nChange your configuration so that this ${shortNoun} will be declared as ${move.to} instead.`,
      ...(move.declaredAt ? { location: move.declaredAt } : {}),
    }];
  });
}

/** Terraform's blockedMovesWarningDiag (internal/terraform/context_plan.go), word for word. */
function blockedMovesWarning(blocked: readonly BlockedMove[]): ConfigurationFinding {
  const items = blocked.map(({ actual, wanted }) => `\n  - ${actual} could not move to ${wanted}`).join('');
  return {
    severity: 'warning',
    summary: 'Unresolved resource instance address changes',
    detail: `Terraform tried to adjust resource instance addresses in the prior state based on change information recorded in the configuration, but some adjustments did not succeed due to existing objects already at the intended addresses:${items}\n\nTerraform has planned to destroy these objects. If Terraform's proposed changes aren't appropriate, you must first resolve the conflicts using the "terraform state" subcommands and then create a new plan.`,
  };
}

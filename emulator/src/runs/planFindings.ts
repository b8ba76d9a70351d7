// What Terraform's plan walk itself reports about the changes it planned, as diagnostics in the plan's log:
// `lifecycle { prevent_destroy = true }` on an instance the plan would destroy or replace fails the plan
// (internal/terraform/node_resource_abstract_instance.go checkPreventDestroy). Only an instance the configuration
// still declares is protected: one whose block was deleted has no lifecycle left to say so, and is destroyed.
import type { DeclaredConfiguration } from '../engine/configuration';
import type { ConfigurationFinding } from './configurationCheck';
import type { PlannedChange } from './model';

export function planFindings(changes: readonly PlannedChange[], declared: DeclaredConfiguration): ConfigurationFinding[] {
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
  return findings;
}

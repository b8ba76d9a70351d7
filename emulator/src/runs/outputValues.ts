// Outputs that read resources are known once those resources are: a plan evaluates them against the instances it
// leaves alone (their values cannot change), an apply against the state it writes. A second pass over the
// configuration with the instances' attributes given; configurations are small, so the simple way is enough.
import { readConfiguration, type DeclaredOutput } from '../engine/configuration';
import { variableValues } from '../engine/plan';
import type { InstanceAttributes } from '../engine/resourceValues';
import type { Store } from '../store/store';
import type { RunRecord } from './model';

/** The run's root outputs with resources read through `instanceAttributes`; undefined when its configuration is not followed. */
export function outputsReadingInstances(store: Store, run: RunRecord, instanceAttributes: InstanceAttributes): DeclaredOutput[] | undefined {
  const parser = store.followConfiguration ? store.terraformParser : undefined;
  const files = store.configurationVersion(run.configurationVersionId)?.files;
  if (!parser || !files?.size) return undefined;
  const variables = variableValues(parser, store.variablesOf(run.workspaceId), run.variables);
  return readConfiguration(parser, files, variables, { instanceAttributes })?.outputs;
}

// Outputs that read resources are known once those resources are: a plan evaluates them against the instances it
// leaves alone (their values cannot change), an apply against the state it writes. A second pass over the
// configuration with the instances' attributes given; configurations are small, so the simple way is enough.
import { readConfiguration, type DeclaredOutput } from '../engine/configuration';
import { variableValues } from '../engine/plan';
import type { Store } from '../store/store';
import type { RunRecord } from './model';
import { runWorkspaceName } from './runWorkspaceName';
import type { StateInstance } from './stateInstances';

/** A resource instance as the caller knows it (its attributes and which are sensitive); undefined when not known. */
export type KnownInstance = (address: string) => StateInstance | undefined;

/**
 * The run's root outputs with resources read through `instances`; undefined when its configuration is not followed.
 * An output that reads a sensitive attribute is sensitive itself (its value changes when those are hidden): the
 * secret must not show in `terraform output` or the redacted outputs. (Terraform refuses such an output unless it is
 * declared sensitive; the emulator marks it so instead.)
 */
export function outputsReadingInstances(store: Store, run: RunRecord, instances: KnownInstance): DeclaredOutput[] | undefined {
  const parser = store.followConfiguration ? store.terraformParser : undefined;
  const files = store.configurationVersion(run.configurationVersionId)?.files;
  if (!parser || !files?.size) return undefined;
  const variables = variableValues(parser, files, store.variablesOf(run.workspaceId), run.variables);
  const workspaceName = runWorkspaceName(store, run);
  const outputs = readConfiguration(parser, files, variables, { instanceAttributes: (address) => instances(address)?.attributes, workspaceName })?.outputs;
  if (!outputs) return undefined;
  const withoutSecrets = (address: string) => {
    const instance = instances(address);
    return instance && Object.fromEntries(Object.entries(instance.attributes).filter(([name]) => !instance.sensitive.includes(name)));
  };
  const hidden = new Map((readConfiguration(parser, files, variables, { instanceAttributes: withoutSecrets, workspaceName })?.outputs ?? []).map((output) => [output.name, output.value]));
  return outputs.map((output) =>
    output.value !== undefined && !output.sensitive && JSON.stringify(hidden.get(output.name)) !== JSON.stringify(output.value) ? { ...output, sensitive: true } : output,
  );
}

// The plan JSON's two snapshots of values (Terraform's JSON output format): `planned_values`, what the state will
// hold once the plan is applied (known values only), and `prior_state`, the state the plan started from. Both are
// built from the plan's resource changes, so they agree with them by construction.
import type { PlannedOutput, RunRecord } from './model';
import { schemaAttributes, unknownAttributeSample } from './terraformData';
import { typeOf } from '../store/valueType';

/** The fields of one resource change in the plan JSON that these snapshots read. */
export interface ResourceChangeJson {
  address: string;
  module_address?: string;
  mode: string;
  type: string;
  name: string;
  index?: number | string;
  provider_name: string;
  change: {
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    after_unknown: Record<string, unknown> | false;
    before_sensitive: Record<string, unknown> | false;
    after_sensitive: Record<string, unknown> | false;
  };
}

/**
 * What the apply will leave: every instance but those the plan deletes or forgets, with the attributes known now
 * (Terraform leaves the unknown ones out rather than writing null), and the outputs the plan keeps.
 */
export function plannedValues(run: RunRecord, changes: readonly ResourceChangeJson[]): Record<string, unknown> {
  const resources = changes
    .filter(({ change }) => change.after !== null)
    .map((resource) => stateResource(resource, resource.change.after!, resource.change.after_unknown, resource.change.after_sensitive));
  const outputs = run.isDestroy ? [] : (run.outputs ?? []).filter((output) => output.action !== 'delete');
  return withOutputs(Object.fromEntries(outputs.map((output) => [output.name, plannedOutput(output)])), moduleTree(resources));
}

/**
 * The state the plan read: the instances it found (under the addresses `moved` blocks gave them), and the outputs
 * as Terraform's refresh leaves them: it evaluates each output the new configuration can already know and keeps the
 * stored value of the rest, removed outputs included. Absent when the plan started from nothing.
 */
export function priorState(run: RunRecord, changes: readonly ResourceChangeJson[]): Record<string, unknown> | undefined {
  const resources = changes
    .filter(({ change }) => change.before !== null)
    .map((resource) => stateResource(resource, resource.change.before!, {}, resource.change.before_sensitive));
  const outputs = (run.outputs ?? []).flatMap((output): Array<[string, unknown]> => {
    const refreshed = !run.isDestroy && output.action !== 'delete' && 'after' in output;
    const value = refreshed ? output.after : output.before;
    return value === null || value === undefined ? [] : [[output.name, { sensitive: output.sensitive, value, type: typeOf(value) }]];
  });
  if (resources.length === 0 && outputs.length === 0) return undefined;
  return { format_version: '1.0', terraform_version: run.engineVersion, values: withOutputs(Object.fromEntries(outputs), moduleTree(resources)) };
}

function withOutputs(outputs: Record<string, unknown>, rootModule: Record<string, unknown>): Record<string, unknown> {
  // Terraform omits an empty outputs map (omitempty), never the root module.
  return { ...(Object.keys(outputs).length > 0 ? { outputs } : {}), root_module: rootModule };
}

function plannedOutput(output: PlannedOutput): Record<string, unknown> {
  // An output known only after apply has nothing but its sensitivity: no value, no type.
  return 'after' in output ? { sensitive: output.sensitive, type: typeOf(output.after), value: output.after } : { sensitive: output.sensitive };
}

interface StateResource {
  module?: string;
  json: Record<string, unknown>;
}

function stateResource(resource: ResourceChangeJson, attributes: Record<string, unknown>, unknown: Record<string, unknown> | false, sensitive: Record<string, unknown> | false): StateResource {
  const values: Record<string, unknown> = Object.fromEntries(Object.entries(attributes).filter(([name]) => !(unknown && unknown[name] === true)));
  // A schema attribute the configuration left unset is null in Terraform's values, not missing.
  for (const name of schemaAttributes(resource.type)) if (!(name in values) && !(unknown && unknown[name] === true)) values[name] = null;
  const sensitiveNames = Object.keys(sensitive || {}).filter((name) => (sensitive as Record<string, unknown>)[name] === true);
  return {
    ...(resource.module_address ? { module: resource.module_address } : {}),
    json: {
      address: resource.address,
      mode: resource.mode,
      type: resource.type,
      name: resource.name,
      ...(resource.index !== undefined ? { index: resource.index } : {}),
      provider_name: resource.provider_name,
      schema_version: 0,
      values,
      sensitive_values: { ...unknownCollections(resource.type, attributes, unknown), ...sensitiveValues(values, sensitiveNames) },
    },
  };
}

/**
 * Terraform's `sensitive_values`: the values' shape with `true` where a value is sensitive. Lists keep one entry per
 * element (false when not sensitive), objects keep only what is not false: `{input: ["a"]}` → `{input: [false]}`.
 */
function sensitiveValues(values: Record<string, unknown>, sensitiveNames: readonly string[]): Record<string, unknown> {
  const shape = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(shape);
    if (value && typeof value === 'object') return compact(Object.entries(value).map(([name, inner]) => [name, shape(inner)]));
    return false;
  };
  const compact = (entries: Array<[string, unknown]>) => Object.fromEntries(entries.filter(([, marker]) => marker !== false));
  return compact(Object.entries(values).map(([name, value]) => [name, sensitiveNames.includes(name) ? true : shape(value)]));
}

/**
 * `sensitive_values` of attributes known only after apply: an unknown list is `[]`, an unknown object `{}` (an
 * unknown string is false, so left out), where the emulator can tell the type.
 */
function unknownCollections(type: string, attributes: Record<string, unknown>, unknown: Record<string, unknown> | false): Record<string, unknown> {
  const unknownNames = Object.keys(unknown || {}).filter((name) => (unknown as Record<string, unknown>)[name] === true);
  return Object.fromEntries(
    unknownNames.flatMap((name) => {
      const sample = unknownAttributeSample(type, name, attributes);
      return Array.isArray(sample) ? [[name, []]] : sample && typeof sample === 'object' ? [[name, {}]] : [];
    }),
  );
}

/**
 * Resources grouped as Terraform's module tree: the root module's own, then `child_modules`, each module instance
 * holding its own resources and its children (`module.a` holds `module.a.module.b`). Sorted by address, as
 * Terraform sorts them.
 */
function moduleTree(resources: readonly StateResource[]): Record<string, unknown> {
  const byAddress = (a: { address: string }, b: { address: string }) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0);
  const build = (moduleAddress: string | undefined): Record<string, unknown> => {
    const own = resources.filter((resource) => resource.module === moduleAddress).map((resource) => resource.json as { address: string });
    const prefix = moduleAddress ? `${moduleAddress}.` : '';
    const children = [
      ...new Set(
        resources
          .map((resource) => resource.module)
          .filter((module): module is string => !!module && module.startsWith(prefix) && module !== moduleAddress)
          .map((module) => prefix + childStep(module.slice(prefix.length))),
      ),
    ].sort();
    return {
      ...(own.length > 0 ? { resources: own.sort(byAddress) } : {}),
      ...(moduleAddress ? { address: moduleAddress } : {}),
      ...(children.length > 0 ? { child_modules: children.map((child) => build(child)) } : {}),
    };
  };
  return build(undefined);
}

/** The first `module.name[key]` step of a module path (keys may hold dots: `module.a["x.y"]`). */
function childStep(path: string): string {
  return /^module\.[^.[\]]+(?:\[[^\]]+\])?/.exec(path)![0];
}

// A finished remote apply writes the workspace's next state version, as the service does: serial + 1, the lineage
// kept (a new one for a workspace's first state), one resource per managed address with its instances.
import { createHash, randomUUID } from 'node:crypto';
import type { Store } from '../store/store';
import type { TerraformState } from '../store/stateVersions';
import type { RunRecord } from './model';

export function writeStateAfterApply(store: Store, run: RunRecord, addresses: readonly string[], at: Date): void {
  const current = store.stateVersions.current(run.workspaceId);
  const previousOutputs = current?.state?.outputs ?? {};
  // The configuration's outputs whose values are known (literals, variables); the others keep their last value.
  const declaredOutputs = Object.fromEntries(
    (run.configuration?.outputs ?? []).filter((o) => o.value !== undefined).map((o) => [o.name, { value: o.value, type: typeOfValue(o.value), ...(o.sensitive ? { sensitive: true } : {}) }]),
  );
  const state: TerraformState = {
    version: 4,
    terraform_version: run.engineVersion,
    serial: (current?.serial ?? 0) + 1,
    lineage: current?.lineage || randomUUID(),
    outputs: run.isDestroy ? {} : run.configuration ? declaredOutputs : previousOutputs,
    resources: run.isDestroy ? [] : stateResources(addresses),
    check_results: null,
  };
  const bytes = Buffer.from(`${JSON.stringify(state, null, 2)}\n`, 'utf8');
  const md5 = createHash('md5').update(bytes).digest('hex');
  store.stateVersions.create(run.workspaceId, { serial: state.serial, lineage: state.lineage, md5, state: bytes, runId: run.id, now: at });
}

/** `module.net.aws_vpc.main[1]` → resource {module: "module.net", type, name} with instance index 1. */
function stateResources(addresses: readonly string[]): NonNullable<TerraformState['resources']> {
  const byResource = new Map<string, { module?: string; mode: string; type: string; name: string; provider: string; instances: unknown[] }>();
  for (const address of addresses) {
    const parsed = /^((?:module\.[^.[\]]+(?:\[[^\]]+\])?\.)*)(data\.)?([^.[\]]+)\.([^.[\]]+)(?:\[(.+)\])?$/.exec(address);
    if (!parsed) continue;
    const [, modulePath, data, type, name, index] = parsed;
    const module = modulePath ? modulePath.replace(/\.$/, '') : undefined;
    const key = `${module ?? ''}|${data ? 'data' : 'managed'}|${type}|${name}`;
    let resource = byResource.get(key);
    if (!resource) {
      resource = { ...(module ? { module } : {}), mode: data ? 'data' : 'managed', type: type!, name: name!, provider: providerOf(type!), instances: [] };
      byResource.set(key, resource);
    }
    const indexKey = index === undefined ? undefined : /^\d+$/.test(index) ? Number(index) : index.replace(/^"|"$/g, '');
    resource.instances.push({
      ...(indexKey !== undefined ? { index_key: indexKey } : {}),
      schema_version: 0,
      attributes: { id: `emulated-${createHash('sha1').update(address).digest('hex').slice(0, 12)}` },
      sensitive_attributes: [],
    });
  }
  return [...byResource.values()];
}

function providerOf(type: string): string {
  if (type === 'terraform_data') return 'provider["terraform.io/builtin/terraform"]';
  return `provider["registry.terraform.io/hashicorp/${type.split('_')[0]}"]`;
}

function typeOfValue(value: unknown): unknown {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return ['tuple', value.map(typeOfValue)];
  if (value && typeof value === 'object') return ['object', Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeOfValue(v)]))];
  return 'dynamic';
}

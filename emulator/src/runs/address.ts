// A resource instance address taken apart: `module.net.aws_vpc.main["a"]` → module `module.net`, type `aws_vpc`,
// name `main`, key `"a"`. Plan JSON, structured logs and state files each name these parts separately.
export interface ResourceAddress {
  /** `module.a.module.b`, absent in the root module. */
  module?: string;
  mode: 'managed' | 'data';
  type: string;
  name: string;
  /** count.index or the for_each key. */
  key?: number | string;
}

const pattern = /^((?:module\.[^.[\]]+(?:\[[^\]]+\])?\.)*)(data\.)?([^.[\]]+)\.([^.[\]]+)(?:\[(.+)\])?$/;

export function parseAddress(address: string): ResourceAddress | undefined {
  const parsed = pattern.exec(address);
  if (!parsed) return undefined;
  const [, modulePath, data, type, name, key] = parsed;
  return {
    ...(modulePath ? { module: modulePath.replace(/\.$/, '') } : {}),
    mode: data ? 'data' : 'managed',
    type: type!,
    name: name!,
    ...(key === undefined ? {} : { key: instanceKey(key) }),
  };
}

/** A key as written between the brackets: `0` or `"a"`. */
function instanceKey(text: string): number | string {
  return /^\d+$/.test(text) ? Number(text) : (JSON.parse(text) as string);
}

/** The provider a resource type belongs to by Terraform's naming rule: `aws_instance` → `aws`. */
export function impliedProvider(type: string): string {
  return type === 'terraform_data' ? 'terraform' : type.split('_')[0]!;
}

/**
 * Terraform's order of resource instance addresses (internal/addrs AbsResourceInstance.Less), which the plan JSON's
 * `resource_changes` follow: the module path first (a shorter one first, then step by step by name and key), then
 * data before managed, the type, the name and the instance key. Keys: none first, then numbers by value, then
 * strings; names and strings in byte order, as Go compares them.
 */
export function compareAddresses(a: string, b: string): number {
  const left = parseAddress(a);
  const right = parseAddress(b);
  if (!left || !right) return left ? 1 : right ? -1 : compareBytes(a, b);
  const leftSteps = moduleSteps(left.module);
  const rightSteps = moduleSteps(right.module);
  if (leftSteps.length !== rightSteps.length) return leftSteps.length - rightSteps.length;
  for (const [index, step] of leftSteps.entries()) {
    const other = rightSteps[index]!;
    const order = compareBytes(step.name, other.name) || compareKeys(step.key, other.key);
    if (order) return order;
  }
  if (left.mode !== right.mode) return left.mode === 'data' ? -1 : 1;
  return compareBytes(left.type, right.type) || compareBytes(left.name, right.name) || compareKeys(left.key, right.key);
}

/** `module.a[0].module.b["x"]` → its steps' names and keys. */
function moduleSteps(modulePath: string | undefined): Array<{ name: string; key?: number | string }> {
  return [...(modulePath ?? '').matchAll(/module\.([^.[\]]+)(?:\[([^\]]+)\])?/g)].map(([, name, key]) => ({ name: name!, ...(key === undefined ? {} : { key: instanceKey(key) }) }));
}

/** Terraform's InstanceKeyLess: no key, then numbers by value, then strings. */
function compareKeys(a: number | string | undefined, b: number | string | undefined): number {
  if (a === b) return 0;
  if (a === undefined || b === undefined) return a === undefined ? -1 : 1;
  if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1;
  return typeof a === 'number' ? a - (b as number) : compareBytes(a, b as string);
}

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

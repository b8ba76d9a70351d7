// Terraform resource instance addresses, taken apart: `module.net["a"].aws_vpc.main[0]` → the module path (names
// and instance keys), the mode, type, name and instance key. Pure; tolerant of what it does not understand
// (undefined rather than a throw), since addresses come from the service.

export interface ModuleStep {
  name: string;
  key?: string | number;
}

export interface ParsedAddress {
  modules: ModuleStep[];
  mode: 'managed' | 'data';
  type: string;
  name: string;
  key?: string | number;
}

const identifier = /^[A-Za-z_][\w-]*/;

/** Splits an address into its dot-separated steps, each with its optional `[key]`. */
function steps(address: string): Array<{ name: string; key?: string | number }> | undefined {
  const result: Array<{ name: string; key?: string | number }> = [];
  let rest = address.trim();
  while (rest.length > 0) {
    const name = identifier.exec(rest)?.[0];
    if (!name) return undefined;
    rest = rest.slice(name.length);
    const step: { name: string; key?: string | number } = { name };
    if (rest.startsWith('[')) {
      const key = readKey(rest);
      if (!key) return undefined;
      step.key = key.value;
      rest = rest.slice(key.length);
    }
    result.push(step);
    if (rest.startsWith('.')) rest = rest.slice(1);
    else if (rest.length > 0) return undefined;
  }
  return result;
}

/** `[0]` or `["a.b"]` (JSON string escapes) at the start of `text`. */
function readKey(text: string): { value: string | number; length: number } | undefined {
  const number = /^\[(\d+)\]/.exec(text);
  if (number) return { value: Number(number[1]), length: number[0].length };
  const quoted = /^\["((?:[^"\\]|\\.)*)"\]/.exec(text);
  if (!quoted) return undefined;
  try {
    return { value: JSON.parse(`"${quoted[1]}"`) as string, length: quoted[0].length };
  } catch {
    return undefined;
  }
}

export function parseAddress(address: string): ParsedAddress | undefined {
  const parts = steps(address);
  if (!parts) return undefined;
  const modules: ModuleStep[] = [];
  let index = 0;
  while (index + 1 < parts.length && parts[index]!.name === 'module' && parts[index]!.key === undefined) {
    const call = parts[index + 1]!;
    modules.push(call.key === undefined ? { name: call.name } : { name: call.name, key: call.key });
    index += 2;
  }
  const rest = parts.slice(index);
  let mode: 'managed' | 'data' = 'managed';
  if (rest.length === 3 && rest[0]!.name === 'data' && rest[0]!.key === undefined) {
    mode = 'data';
    rest.shift();
  }
  if (rest.length !== 2 || rest[0]!.key !== undefined) return undefined;
  const [type, name] = rest as [{ name: string }, { name: string; key?: string | number }];
  return { modules, mode, type: type.name, name: name.name, ...(name.key !== undefined ? { key: name.key } : {}) };
}

/** The resource part as a block's address has it: `aws_vpc.main`, `data.aws_ami.x` (no module, no key). */
export function resourceKey(parsed: Pick<ParsedAddress, 'mode' | 'type' | 'name'>): string {
  return parsed.mode === 'data' ? `data.${parsed.type}.${parsed.name}` : `${parsed.type}.${parsed.name}`;
}

/** A module path as written in addresses, without instance keys: `module.a.module.b.` ('' for the root). */
export function modulePrefix(modules: readonly ModuleStep[]): string {
  return modules.map((step) => `module.${step.name}.`).join('');
}

/** `aws_instance.a[0]` → `aws_instance.a`; `module.x["k"]` → `module.x` (for matching moved blocks). */
export function withoutKeys(address: string): string {
  return address.replace(/\[(?:\d+|"(?:[^"\\]|\\.)*")\]/g, '');
}

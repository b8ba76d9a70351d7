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
    ...(key === undefined ? {} : { key: /^\d+$/.test(key) ? Number(key) : (JSON.parse(key) as string) }),
  };
}

/** The provider a resource type belongs to by Terraform's naming rule: `aws_instance` → `aws`. */
export function impliedProvider(type: string): string {
  return type === 'terraform_data' ? 'terraform' : type.split('_')[0]!;
}

// What `<type>.<name>` is worth in a module when the caller knows the instances' attributes (the state an apply
// writes, the instances a plan leaves alone): shaped as Terraform shapes it, so attribute, index and splat accesses
// after it read the same as in Terraform.
import type { Node } from 'web-tree-sitter';
import type { LiteralObject } from '../../../server/src/model/hclLiterals';
import type { Scope } from './evaluate';
import { expand, instanceSuffix } from './modules';
import { unknown, type Value } from './values';

/** A resource instance's attributes by its address (`module.net.aws_vpc.main[0]`); undefined when not known. */
export type InstanceAttributes = (address: string) => Record<string, unknown> | undefined;

/**
 * The resource block's value: one instance's attributes, a tuple of them under count, a map by key under for_each.
 * Unknown as a whole when any instance is unknown, as values.ts has no partly known collections.
 */
export function resourceValue(block: Node, scope: Scope, address: string, attributes: InstanceAttributes): Value {
  const expansion = expand(block, scope);
  if (expansion.kind === 'unknown') return unknown;
  const instances = expansion.instances.map(({ index }) => [index, attributes(`${address}${instanceSuffix(index)}`) as LiteralObject | undefined] as const);
  if (instances.some(([, values]) => values === undefined)) return unknown;
  if (expansion.kind === 'single') return instances[0]![1]!;
  if (expansion.kind === 'count') return instances.map(([, values]) => values!);
  return Object.fromEntries(instances.map(([index, values]) => [String(index), values!]));
}

// Why a plan destroys an instance the configuration no longer declares, as Terraform says it in the plan JSON's
// `action_reason` (and the CLI under "will be destroyed"): the resource block is gone, the instance's count index or
// for_each key is, its module instance is, or the instance key does not fit the block's repetition. Terraform decides
// it in node_resource_plan_orphan.go (deleteActionReason), from the resource's configuration and the expanded
// module instances; this follows the same order.
import { parseAddress } from '../runs/address';
import type { Node } from 'web-tree-sitter';
import { attributeNode, expand, type Expansion, type ModuleInstance } from './modules';

export type DeleteReason =
  | 'delete_because_no_resource_config'
  | 'delete_because_no_module'
  | 'delete_because_wrong_repetition'
  | 'delete_because_count_index'
  | 'delete_because_each_key';

/** The meta-argument a resource block repeats by, as written (`count` first: Terraform rejects both). */
export type RepetitionArgument = 'count' | 'for_each' | 'none';

/** What decides a reason: each resource block per module instance with its repetition, and the module calls. */
export interface DeclaredRepetition {
  /** `<module instance path>|type.name` → how the block repeats in that module instance. */
  resources: Map<string, Expansion['kind']>;
  /** The module instances that exist ('' for the root). */
  moduleInstances: Set<string>;
  /**
   * Resource blocks by module path without instance keys (`module.net|type.name`): the configuration, not its
   * instances, with the meta-argument written in the block (whether or not the emulator can evaluate it).
   */
  configuredResources: Map<string, RepetitionArgument>;
  /** Module calls by path without instance keys (`module.net.module.inner`), declared even when they make no instance. */
  moduleCalls: Set<string>;
}

/** Walks the module instances as readConfiguration does, noting each resource block's repetition. */
export function declaredRepetition(root: ModuleInstance): DeclaredRepetition {
  const repetition: DeclaredRepetition = { resources: new Map(), moduleInstances: new Set(), configuredResources: new Map(), moduleCalls: new Set() };
  const visit = (module: ModuleInstance) => {
    repetition.moduleInstances.add(module.path);
    for (const block of module.blocks) {
      if (block.keyword === 'resource' && block.labels.length === 2) {
        const resource = `${block.labels[0]}.${block.labels[1]}`;
        repetition.resources.set(`${module.path}|${resource}`, expand(block.node, module.scope).kind);
        repetition.configuredResources.set(`${withoutKeys(module.path)}|${resource}`, repetitionArgument(block.node));
      }
      if (block.keyword === 'module' && block.labels[0]) {
        repetition.moduleCalls.add(`${module.path ? `${withoutKeys(module.path)}.` : ''}module.${block.labels[0]}`);
        for (const { module: child } of module.call(block.labels[0])?.modules ?? []) visit(child);
      }
    }
  };
  visit(root);
  return repetition;
}

function repetitionArgument(block: Node): RepetitionArgument {
  return attributeNode(block, 'count') ? 'count' : attributeNode(block, 'for_each') ? 'for_each' : 'none';
}

/** The reason Terraform gives for deleting `address`, which no declared instance has; undefined when it gives none. */
export function deleteReason(address: string, repetition: DeclaredRepetition): DeleteReason | undefined {
  const parsed = parseAddress(address);
  if (!parsed || parsed.mode !== 'managed') return undefined;
  const modulePath = parsed.module ?? '';
  const resource = `${parsed.type}.${parsed.name}`;
  // No block in the module's configuration, whichever instance of it: the block (or the whole module call) is gone.
  if (!repetition.configuredResources.has(`${withoutKeys(modulePath)}|${resource}`) && !moduleCallDeclared(modulePath, repetition)) return 'delete_because_no_resource_config';
  if (!repetition.moduleInstances.has(modulePath)) return 'delete_because_no_module';
  const kind = repetition.resources.get(`${modulePath}|${resource}`);
  if (kind === undefined) return 'delete_because_no_resource_config';
  if (kind === 'unknown') return undefined;
  if (typeof parsed.key === 'number') return kind === 'count' ? 'delete_because_count_index' : 'delete_because_wrong_repetition';
  if (typeof parsed.key === 'string') return kind === 'for_each' ? 'delete_because_each_key' : 'delete_because_wrong_repetition';
  return kind === 'single' ? undefined : 'delete_because_wrong_repetition';
}

/**
 * A module path whose module instance is missing but whose call is still written (count or for_each left it out):
 * Terraform has the resource's configuration then, so the reason is the missing module instance. The emulator does
 * not read a module that has no instance, so the call standing stands in for its resource block.
 */
function moduleCallDeclared(modulePath: string, repetition: DeclaredRepetition): boolean {
  return modulePath !== '' && !repetition.moduleInstances.has(modulePath) && repetition.moduleCalls.has(withoutKeys(modulePath));
}

/** `module.a[0].module.b["x"]` → `module.a.module.b`: the configuration's path, not an instance's. */
export function withoutKeys(modulePath: string): string {
  return modulePath.replace(/\[(?:"(?:[^"\\]|\\.)*"|\d+)\]/g, '');
}

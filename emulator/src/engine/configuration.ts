// What an uploaded configuration declares, read with the same tree-sitter grammar as the language server: the
// resource instances (count / for_each expanded, local modules followed), each one's arguments as far as they can
// be evaluated before apply (evaluate.ts), which of them are only known after apply (each with a fingerprint of its
// text and of what it reads) and which read sensitive values, and the root module's outputs.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import type { TerraformParser } from '../../../server/src/model';
import type { LiteralValue } from '../../../server/src/model/hclLiterals';
import { attributeName, blockKeyword, blockLabelNodes, bodyItems, labelValue, topLevelBlocks } from '../../../server/src/model/syntaxTree';
import type { Scope } from './evaluate';
import { declaredRepetition, type DeclaredRepetition } from './deleteReasons';
import { readLifecycle, type ResourceLifecycle } from './lifecycle';
import { refactoringStatements, type MoveStatement, type RemoveStatement } from './refactoring';
import { expand, instanceSuffix, ModuleInstance, type ConfigBlock } from './modules';
import { referencedValues } from './references';
import type { InstanceAttributes } from './resourceValues';
import { nestedBlockName, resourceArguments } from './resourceArguments';
import { VariableValueMap } from './values';

export interface DeclaredInstance {
  /** `type.name[index]`, behind `module.<name>[index].` for each module it sits in. */
  address: string;
  type: string;
  /** The resource's name and, for module resources, its module path ("module.net"); index is count.index or the for_each key. */
  name: string;
  module?: string;
  index?: number | string;
  /** Arguments whose values the engine could evaluate (nested blocks as arrays of objects under the block's name). */
  values: Record<string, LiteralValue>;
  /** Top-level argument names whose value is only known after apply (references to other resources, functions it does not evaluate). */
  unknown: string[];
  /** Top-level argument names whose value reads a sensitive variable (declared `sensitive = true`, or marked sensitive on the workspace). */
  sensitive: string[];
  /**
   * For each argument in `unknown`: a hash of its text and of the values it reads (variables, locals, keys), which
   * changes when they do. The emulator cannot evaluate everything Terraform can, so this stands in for the value
   * when a plan asks whether such an argument changed since it was applied.
   */
  unknownFingerprints: Record<string, string>;
  /** The resource block's `lifecycle` settings (engine/lifecycle.ts). */
  lifecycle: ResourceLifecycle;
  /** Where the resource block starts, for Terraform's diagnostics about it ("on main.tf line 3:"). */
  declaredAt?: { file: string; line: number; text: string };
}

export interface DeclaredOutput {
  name: string;
  /** Declared `sensitive = true`, or its value reads a sensitive value. */
  sensitive: boolean;
  /** Absent when the value is only known after apply. */
  value?: LiteralValue;
  /** True when the value could not be evaluated (it is known after apply). */
  unknown: boolean;
}

export interface DeclaredConfiguration {
  instances: DeclaredInstance[];
  outputs: DeclaredOutput[];
  /** The `moved` blocks, root's and modules', addresses absolute (engine/refactoring.ts). */
  moves: MoveStatement[];
  /** The `removed` blocks, likewise. */
  removals: RemoveStatement[];
  /** How each resource block repeats per module instance, for why a plan destroys what is no longer declared. */
  repetition?: DeclaredRepetition;
}

/** Variable values by name: run variables over workspace variables (the caller merges them; defaults come from the code). */
export type VariableValues = ReadonlyMap<string, LiteralValue>;

export interface ReadOptions {
  /** Variables marked sensitive on the workspace; by default those of a `VariableValueMap` passed as `variables`. */
  sensitiveVariables?: ReadonlySet<string>;
  /** Resource instances' attributes, for expressions that read a resource; without it those are known only after apply. */
  instanceAttributes?: InstanceAttributes;
  /** What `terraform.workspace` evaluates to (engine/terraformWorkspace.ts); without it, unknown. */
  workspaceName?: string;
}

/** The configuration's declarations; undefined when no `.tf` file declares a resource, a root output, a moved or a removed block. */
export function readConfiguration(parser: TerraformParser, files: ReadonlyMap<string, Buffer>, variables: VariableValues, options: ReadOptions = {}): DeclaredConfiguration | undefined {
  const sensitiveVariables = options.sensitiveVariables ?? (variables instanceof VariableValueMap ? variables.sensitive : new Set<string>());
  const sources = new Map<string, ConfigBlock[]>();
  const trees = [];
  try {
    for (const [file, content] of [...files.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      if (!file.endsWith('.tf')) continue;
      // The root module is the files at the top of the upload; the others are only read when a module calls them.
      const dir = path.posix.dirname(path.posix.normalize(file));
      const tree = parser.parse(content.toString('utf8'));
      trees.push(tree);
      const blocks = sources.get(dir === '.' ? '' : dir) ?? [];
      for (const block of topLevelBlocks(tree.rootNode)) blocks.push({ keyword: blockKeyword(block), labels: blockLabelNodes(block).map(labelValue), node: block, file: path.posix.normalize(file) });
      sources.set(dir === '.' ? '' : dir, blocks);
    }
    const root = new ModuleInstance(sources, '', '', { value: (name) => variables.get(name), sensitive: (name) => sensitiveVariables.has(name) }, 0, options.instanceAttributes, options.workspaceName);
    const instances = moduleInstances(root);
    const outputs = root.blocks
      .filter((block) => block.keyword === 'output' && block.labels[0])
      .map((block): DeclaredOutput => {
        const name = block.labels[0]!;
        const { values, sensitive } = root.outputs();
        const value = Object.hasOwn(values, name) ? values[name] : undefined;
        return { name, sensitive: sensitive.includes(name), ...(value !== undefined ? { value } : {}), unknown: value === undefined };
      });
    const { moves, removals } = refactoringStatements(root);
    // A configuration that only removes or moves what the state holds is still one to plan (its resources go).
    return instances.length > 0 || outputs.length > 0 || moves.length > 0 || removals.length > 0 ? { instances, outputs, moves, removals, repetition: declaredRepetition(root) } : undefined;
  } finally {
    for (const tree of trees) tree.delete();
  }
}

/** The module's resources and, where its `module` blocks are written, the resources of each called instance. */
function moduleInstances(module: ModuleInstance): DeclaredInstance[] {
  const instances: DeclaredInstance[] = [];
  for (const block of module.blocks) {
    if (block.keyword === 'resource' && block.labels.length === 2) instances.push(...resourceInstances(module, block));
    if (block.keyword === 'module' && block.labels[0]) for (const { module: child } of module.call(block.labels[0])?.modules ?? []) instances.push(...moduleInstances(child));
  }
  return instances;
}

function resourceInstances(module: ModuleInstance, { labels, node: block, file }: ConfigBlock): DeclaredInstance[] {
  const [type, name] = labels as [string, string];
  const lifecycle = readLifecycle(block);
  const declaredAt = file ? { file, line: block.startPosition.row + 1, text: block.text.split('\n')[0]!.trim() } : undefined;
  return expand(block, module.scope).instances.map(({ index, scope }) => {
    const { values, unknown: unknownNames, sensitive } = resourceArguments(block, scope, module);
    return {
      address: `${module.path ? `${module.path}.` : ''}${type}.${name}${instanceSuffix(index)}`,
      type,
      name,
      ...(module.path ? { module: module.path } : {}),
      ...(index !== undefined ? { index } : {}),
      values,
      unknown: unknownNames,
      sensitive,
      unknownFingerprints: Object.fromEntries(unknownNames.map((argument) => [argument, fingerprintOf(argumentItems(block, argument), scope)])),
      lifecycle,
      ...(declaredAt ? { declaredAt } : {}),
    };
  });
}

/** The arguments' text and the values of what they read (`count.index` and `each.*` per instance), hashed. */
function fingerprintOf(items: readonly Node[], scope: Scope): string {
  const hash = createHash('sha1');
  for (const item of items) {
    hash.update(item.text.replace(/\s+/g, ' ')).update(JSON.stringify(referencedValues(item, scope))).update('\n');
  }
  return hash.digest('hex');
}

/** The body items that set one argument: its attribute, or every block (also `dynamic` ones) of that name. */
function argumentItems(block: Node, argument: string): Node[] {
  return bodyItems(block).filter((item) => (item.type === 'attribute' ? attributeName(item) : nestedBlockName(item)) === argument);
}

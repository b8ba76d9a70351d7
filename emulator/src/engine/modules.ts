// One instance of a module (the root, or a local `module` block's instance): its variables (bound from the caller
// over the declared defaults), locals, calls to local modules and outputs, each evaluated lazily and once, so
// locals, modules and outputs may refer to one another in any order. A cycle evaluates to unknown, not a hang.
import path from 'node:path';
import type { Node } from 'web-tree-sitter';
import type { LiteralObject, LiteralValue } from '../../../server/src/model/hclLiterals';
import { attributeName, attributeValue, bodyItems } from '../../../server/src/model/syntaxTree';
import { evaluate, type Scope } from './evaluate';
import { readsSensitive, type Sensitivity } from './references';
import { resourceValue, type InstanceAttributes } from './resourceValues';
import { asNumber, asText, isObject, unknown, type Value } from './values';

export interface ConfigBlock {
  keyword: string;
  labels: string[];
  node: Node;
  /** The file it is written in (`main.tf`, `modules/net/main.tf`), for diagnostics that point at it. */
  file?: string;
}

/** The uploaded `.tf` files' top-level blocks by directory: '' is the root module, 'modules/net' a local module. */
export type ModuleSources = ReadonlyMap<string, ConfigBlock[]>;

/** How a module instance's variables are set by whoever calls it. */
export interface Binding {
  /** Undefined when the caller does not set the variable (its default applies). */
  value(name: string): Value | undefined;
  sensitive(name: string): boolean;
}

export interface Expansion {
  /** `unknown`: count / for_each could not be evaluated; one instance without a key stands for it. */
  kind: 'single' | 'count' | 'for_each' | 'unknown';
  instances: Array<{ index?: number | string; scope: Scope }>;
}

/** Nested local modules deeper than this (a module calling itself) are not followed. */
const maxModuleDepth = 16;
const moduleMetaArguments = new Set(['source', 'version', 'count', 'for_each', 'providers', 'depends_on']);

export function attributeNode(block: Node, name: string): Node | undefined {
  const attribute = bodyItems(block).find((item) => item.type === 'attribute' && attributeName(item) === name);
  return attribute ? attributeValue(attribute) : undefined;
}

/** The instances `count` or `for_each` make of a resource or module block, each with its `count.index` / `each`. */
export function expand(block: Node, scope: Scope): Expansion {
  const countNode = attributeNode(block, 'count');
  const forEachNode = attributeNode(block, 'for_each');
  if (countNode) {
    const count = asNumber(evaluate(countNode, scope));
    if (count === undefined) return { kind: 'unknown', instances: [{ scope }] };
    return { kind: 'count', instances: Array.from({ length: Math.max(0, Math.floor(count)) }, (_, index) => ({ index, scope: { ...scope, count: index } })) };
  }
  if (forEachNode) {
    const forEach = evaluate(forEachNode, scope);
    const pairs: Array<[string, LiteralValue]> | undefined = Array.isArray(forEach)
      ? forEach.flatMap((item): Array<[string, LiteralValue]> => (asText(item) === undefined ? [] : [[asText(item)!, item]]))
      : isObject(forEach)
        ? Object.entries(forEach)
        : undefined;
    if (!pairs) return { kind: 'unknown', instances: [{ scope }] };
    // A set's repeated element counts once; Terraform orders the instances of a map or a set of strings by key
    // (byte order), whatever order the code wrote them in, and so do its plan and state.
    const unique = [...new Map(pairs)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return { kind: 'for_each', instances: unique.map(([key, value]) => ({ index: key, scope: { ...scope, each: { key, value } } })) };
  }
  return { kind: 'single', instances: [{ scope }] };
}

export function instanceSuffix(index: number | string | undefined): string {
  return index === undefined ? '' : `[${JSON.stringify(index)}]`;
}

interface ModuleCall {
  expansion: Expansion;
  modules: Array<{ index?: number | string; module: ModuleInstance }>;
}

export class ModuleInstance {
  readonly scope: Scope;
  readonly sensitivity: Sensitivity;
  private readonly memo = new Map<string, unknown>();
  private readonly pending = new Set<string>();

  /**
   * `path` is the address prefix ("module.net[0]"), '' for the root. `instanceAttributes` gives what the caller knows
   * of resource instances (this module's and the modules it calls); without it every resource reads as unknown.
   */
  constructor(
    private readonly sources: ModuleSources,
    readonly dir: string,
    readonly path: string,
    private readonly binding: Binding,
    private readonly depth = 0,
    private readonly instanceAttributes?: InstanceAttributes,
    /** `terraform.workspace` in this module and those it calls (the same in all of them, as in Terraform). */
    private readonly workspaceName?: string,
  ) {
    this.scope = {
      variable: (name) => this.once(`var.${name}`, unknown, () => this.variable(name)),
      local: (name) => this.once(`local.${name}`, unknown, () => this.local(name)),
      module: (name) => this.moduleValue(name),
      resource: (type, name) => this.once(`resource.${type}.${name}`, unknown, () => this.resource(type, name)),
      modulePath: dir || '.',
      ...(workspaceName !== undefined ? { workspaceName } : {}),
    };
    this.sensitivity = {
      variable: (name) => binding.sensitive(name) || this.variableBlock(name)?.sensitive === true,
      local: (name) => this.once(`sensitive local.${name}`, false, () => this.readsSensitive(this.localNode(name))),
      moduleOutput: (name, output) => (this.call(name)?.modules ?? []).some(({ module }) => module.outputs().sensitive.some((o) => output === undefined || o === output)),
    };
  }

  get blocks(): ConfigBlock[] {
    return this.sources.get(this.dir) ?? [];
  }

  readsSensitive(node: Node | undefined): boolean {
    return node !== undefined && readsSensitive(node, this.sensitivity);
  }

  /** The module's `module` blocks' instances, in the order written; registry modules have none. */
  call(name: string): ModuleCall | undefined {
    return this.once(`module.${name}`, undefined, () => this.callOf(name));
  }

  /** Output values that could be evaluated, and the names of the sensitive ones. */
  outputs(): { values: LiteralObject; sensitive: string[] } {
    return this.once('outputs', { values: {}, sensitive: [] }, () => {
      const values: LiteralObject = {};
      const sensitive: string[] = [];
      for (const block of this.blocks.filter((b) => b.keyword === 'output' && b.labels[0])) {
        const name = block.labels[0]!;
        const node = attributeNode(block.node, 'value');
        const value = node ? evaluate(node, this.scope) : unknown;
        if (value !== unknown) values[name] = value;
        if (this.readsSensitive(node) || (attributeNode(block.node, 'sensitive') && evaluate(attributeNode(block.node, 'sensitive')!, this.scope) === true)) sensitive.push(name);
      }
      return { values, sensitive };
    });
  }

  /** Evaluates once per key; a key asked for while it is being evaluated (a cycle) gets `whileCycling`. */
  private once<T>(key: string, whileCycling: T, compute: () => T): T {
    if (this.memo.has(key)) return this.memo.get(key) as T;
    if (this.pending.has(key)) return whileCycling;
    this.pending.add(key);
    try {
      const value = compute();
      this.memo.set(key, value);
      return value;
    } finally {
      this.pending.delete(key);
    }
  }

  private variableBlock(name: string): { node: Node; sensitive: boolean } | undefined {
    const block = this.blocks.find((b) => b.keyword === 'variable' && b.labels[0] === name);
    if (!block) return undefined;
    const sensitive = attributeNode(block.node, 'sensitive');
    return { node: block.node, sensitive: sensitive !== undefined && evaluate(sensitive, this.scope) === true };
  }

  /** The caller's value over the declared default, converted to a declared primitive type as Terraform does. */
  private variable(name: string): Value {
    const block = this.variableBlock(name)?.node;
    const given = this.binding.value(name);
    const defaultNode = block ? attributeNode(block, 'default') : undefined;
    const value = given !== undefined ? given : defaultNode ? evaluate(defaultNode, this.scope) : unknown;
    const type = block ? attributeNode(block, 'type')?.text : undefined;
    if (value === unknown || value === null) return value;
    if (type === 'number') return asNumber(value) ?? value;
    if (type === 'bool' && (value === 'true' || value === 'false')) return value === 'true';
    if (type === 'string') return asText(value) ?? value;
    return value;
  }

  private localNode(name: string): Node | undefined {
    for (const block of this.blocks) if (block.keyword === 'locals') {
      const node = attributeNode(block.node, name);
      if (node) return node;
    }
    return undefined;
  }

  private local(name: string): Value {
    const node = this.localNode(name);
    return node ? evaluate(node, this.scope) : unknown;
  }

  private resource(type: string, name: string): Value {
    const block = this.blocks.find((b) => b.keyword === 'resource' && b.labels[0] === type && b.labels[1] === name)?.node;
    if (!block || !this.instanceAttributes) return unknown;
    return resourceValue(block, this.scope, `${this.path ? `${this.path}.` : ''}${type}.${name}`, this.instanceAttributes);
  }

  private moduleValue(name: string): Value {
    const call = this.call(name);
    if (!call || call.expansion.kind === 'unknown') return unknown;
    const outputs = call.modules.map(({ index, module }) => [index, module.outputs().values] as const);
    if (call.expansion.kind === 'single') return outputs[0]?.[1] ?? unknown;
    if (call.expansion.kind === 'count') return outputs.map(([, values]) => values);
    return Object.fromEntries(outputs.map(([index, values]) => [String(index), values]));
  }

  private callOf(name: string): ModuleCall | undefined {
    const block = this.blocks.find((b) => b.keyword === 'module' && b.labels[0] === name)?.node;
    const sourceNode = block ? attributeNode(block, 'source') : undefined;
    const source = sourceNode ? evaluate(sourceNode, this.scope) : unknown;
    const dir = typeof source === 'string' ? localModuleDir(this.dir, source) : undefined;
    if (!block || dir === undefined || !this.sources.has(dir) || this.depth >= maxModuleDepth) return undefined;
    const expansion = expand(block, this.scope);
    const modules = expansion.instances.map(({ index, scope }) => {
      const argument = (variable: string) => (moduleMetaArguments.has(variable) ? undefined : attributeNode(block, variable));
      const binding: Binding = {
        value: (variable) => {
          const node = argument(variable);
          return node ? evaluate(node, scope) : undefined;
        },
        sensitive: (variable) => this.readsSensitive(argument(variable)),
      };
      const modulePath = `${this.path ? `${this.path}.` : ''}module.${name}${instanceSuffix(index)}`;
      return { ...(index !== undefined ? { index } : {}), module: new ModuleInstance(this.sources, dir, modulePath, binding, this.depth + 1, this.instanceAttributes, this.workspaceName) };
    });
    return { expansion, modules };
  }
}

/** `./modules/net` called from `dir` → 'modules/net'; registry and remote sources, or paths leaving the upload, → undefined. */
export function localModuleDir(dir: string, source: string): string | undefined {
  if (!source.startsWith('./') && !source.startsWith('../')) return undefined;
  const resolved = path.posix.normalize(path.posix.join(dir || '.', source)).replace(/\/+$/, '');
  if (resolved === '..' || resolved.startsWith('../')) return undefined;
  return resolved === '.' ? '' : resolved;
}

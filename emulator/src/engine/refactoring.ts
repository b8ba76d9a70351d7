// The configuration's refactoring statements, as Terraform reads them before it plans: `moved` blocks rename objects
// the state holds (a resource, one instance, a module call or one module instance) instead of destroying and
// recreating them, and `removed` blocks (Terraform 1.7+) say what to do with an object whose block was deleted:
// destroy it (the default) or, with `lifecycle { destroy = false }`, only forget it. Addresses in a module's
// statements are relative to that module, so each module instance's get its path in front.
import type { Node } from 'web-tree-sitter';
import { attributeName, attributeValue, blockKeyword, bodyItems } from '../../../server/src/model/syntaxTree';
import { parseAddress } from '../runs/address';
import { withoutKeys, type DeclaredRepetition } from './deleteReasons';
import { attributeNode, type ModuleInstance } from './modules';

/** Where a statement is written, for Terraform's diagnostics about it. */
export interface StatementLocation {
  file: string;
  line: number;
  text: string;
}

export interface MoveStatement {
  from: string;
  to: string;
  declaredAt?: StatementLocation;
}

export interface RemoveStatement {
  /** A resource (`a.b`, `module.m.a.b`) or a module call (`module.m`); never one instance. */
  from: string;
  /** false: the state forgets the object and it is left alone; true (the default): it is destroyed. */
  destroy: boolean;
  declaredAt?: StatementLocation;
}

export interface RefactoringStatements {
  moves: MoveStatement[];
  removals: RemoveStatement[];
}

/**
 * The `moved` and `removed` blocks of the module instance and of the local modules it calls, addresses made absolute
 * (those with no `from` are left out). A parent's statements come first: Terraform lets them override a child's.
 */
export function refactoringStatements(module: ModuleInstance, statements: RefactoringStatements = { moves: [], removals: [] }): RefactoringStatements {
  const prefix = module.path ? `${module.path}.` : '';
  for (const { keyword, node, file } of module.blocks) {
    if (keyword !== 'moved' && keyword !== 'removed') continue;
    const from = traversal(node, 'from');
    if (!from) continue;
    const declaredAt = file ? { file, line: node.startPosition.row + 1, text: node.text.split('\n')[0]!.trim() } : undefined;
    const located = declaredAt ? { declaredAt } : {};
    if (keyword === 'moved') {
      const to = traversal(node, 'to');
      if (to) statements.moves.push({ from: prefix + from, to: prefix + to, ...located });
    } else {
      statements.removals.push({ from: prefix + from, destroy: removedDestroys(node), ...located });
    }
  }
  for (const block of module.blocks) {
    if (block.keyword === 'module' && block.labels[0]) for (const { module: child } of module.call(block.labels[0])?.modules ?? []) refactoringStatements(child, statements);
  }
  return statements;
}

/** An address written as a traversal (`module.a.b.c["k"]`), as text without blanks. */
function traversal(block: Node, name: string): string | undefined {
  const text = attributeNode(block, name)?.text.replace(/\s+/g, '');
  return text || undefined;
}

/** `lifecycle { destroy = false }` in a removed block; true unless it says false. */
function removedDestroys(block: Node): boolean {
  for (const lifecycle of bodyItems(block).filter((item) => item.type === 'block' && blockKeyword(item) === 'lifecycle')) {
    for (const item of bodyItems(lifecycle)) if (item.type === 'attribute' && attributeName(item) === 'destroy' && attributeValue(item)?.text.trim() === 'false') return false;
  }
  return true;
}

/**
 * Whether an endpoint covers an instance address: the very address, every instance of a resource (`a.b` covers
 * `a.b[0]`), everything in a module call or module instance (`module.m` covers `module.m[1].a.b`). An endpoint with
 * a key, or whose other end has one, names that one instance or module instance only.
 */
function covers(endpoint: string, address: string, keyed: boolean): boolean {
  if (address === endpoint) return true;
  if (endpoint.startsWith('module.') && address.startsWith(`${endpoint}.`) && isModulePath(endpoint)) return true;
  return !keyed && address.startsWith(`${endpoint}[`);
}

/** `module.a` or `module.a["x"].module.b`: the endpoint names modules only (no resource at its end). */
export function isModulePath(endpoint: string): boolean {
  return /^(module\.[^.[\]]+(\[[^\]]+\])?)(\.module\.[^.[\]]+(\[[^\]]+\])?)*$/.test(endpoint);
}

/** A move Terraform could not make because an object already held its destination (refactoring.MoveBlocked). */
export interface BlockedMove {
  /** Where the object stays: an instance, a resource or a module instance, as the statement moves it. */
  actual: string;
  /** Where the statement would have taken it. */
  wanted: string;
}

export interface MoveResults {
  /** Old instance address → new, for those that move. */
  renames: Map<string, string>;
  /** Each blocked move once, in the state's order (Terraform's own order is a Go map's). */
  blocked: BlockedMove[];
}

/**
 * Where each state address goes under the move statements (Terraform's ApplyMoves). A chain (a→b, b→c, in any order)
 * is followed to its end. A move whose destination the state already holds is blocked, as Terraform blocks it, and
 * the object stays where it is: a statement naming an instance checks that instance, one naming a resource the whole
 * destination resource (any instance blocks every instance from moving), one naming a module each module instance.
 */
export function movedAddresses(addresses: Iterable<string>, moves: readonly MoveStatement[]): MoveResults {
  const held = [...addresses];
  const renames = new Map<string, string>();
  const blocked = new Map<string, BlockedMove>();
  // What the state holds at each level a statement can name (instances, resources, module instances), read once.
  const heldUnits = new Map<(address: string) => string, Set<string>>();
  const holds = (unit: (address: string) => string, wanted: string) => {
    let units = heldUnits.get(unit);
    if (!units) heldUnits.set(unit, (units = new Set(held.map(unit))));
    return units.has(wanted);
  };
  for (const original of held) {
    let address = original;
    // Each statement at most once: a cycle (a→b, b→a) ends instead of turning forever.
    const used = new Set<MoveStatement>();
    for (;;) {
      const move = moves.find((candidate) => !used.has(candidate) && covers(candidate.from, address, hasKey(candidate.from) || hasKey(candidate.to)));
      if (!move) break;
      used.add(move);
      const next = move.to + address.slice(move.from.length);
      // What the statement moves, at its own level: the objects moving along with this one never block it.
      const unit = isModulePath(move.from) ? moduleOf : hasKey(move.from) || hasKey(move.to) ? instanceOf : resourceOf;
      const wanted = unit(next);
      if (wanted !== unit(original) && holds(unit, wanted)) {
        blocked.set(unit(address), { actual: unit(address), wanted });
        break;
      }
      address = next;
    }
    if (address !== original) renames.set(original, address);
  }
  return { renames, blocked: [...blocked.values()] };
}

/** An instance address as it is: the level of a statement that names an instance. */
function instanceOf(address: string): string {
  return address;
}

/** `module.m[0].x.y` → `module.m[0]`: the module instance an address is in. */
function moduleOf(address: string): string {
  return parseAddress(address)?.module ?? '';
}

/** `x.a[0]` → `x.a`: the resource an instance belongs to. */
function resourceOf(address: string): string {
  return address.replace(/\[(?:"(?:[^"\\]|\\.)*"|\d+)\]$/, '');
}

/**
 * The moves Terraform infers when a resource the state holds gained or lost `count` (internal/refactoring/
 * move_statement.go ImpliedMoveStatements, which keeps Terraform 1.0's count boundary): a block that now has `count`
 * takes the no-key instance as `[0]`, a block with neither `count` nor `for_each` takes `[0]` as its no-key
 * instance. Never into `for_each` keys, never for a resource an explicit `moved` block names at either end (its author
 * chose the instance to keep), and a move onto an address the state holds is blocked as any other (movedAddresses).
 * They come after the explicit statements, as Terraform lists them. Terraform decides by the block as written; where
 * the emulator could not evaluate a count it stands one no-key instance in, so there it moves nothing.
 */
export function impliedMoveStatements(addresses: Iterable<string>, repetition: DeclaredRepetition | undefined, explicit: readonly MoveStatement[]): MoveStatement[] {
  if (!repetition) return [];
  const implied: MoveStatement[] = [];
  for (const address of addresses) {
    const parsed = parseAddress(address);
    if (!parsed || parsed.mode !== 'managed') continue;
    const modulePath = parsed.module ?? '';
    const resource = `${parsed.type}.${parsed.name}`;
    if (repetition.resources.get(`${modulePath}|${resource}`) === 'unknown') continue;
    const argument = repetition.configuredResources.get(`${withoutKeys(modulePath)}|${resource}`);
    const base = `${modulePath ? `${modulePath}.` : ''}${resource}`;
    const to = argument === 'count' && parsed.key === undefined ? `${base}[0]` : argument === 'none' && parsed.key === 0 ? base : undefined;
    if (to && !explicit.some((move) => selectsResource(move.from, base) || selectsResource(move.to, base))) implied.push({ from: address, to });
  }
  return implied;
}

/** Whether a move endpoint names the resource or one of its instances (Terraform's SelectsResource; a module names none). */
function selectsResource(endpoint: string, resource: string): boolean {
  return !isModulePath(endpoint) && resourceOf(endpoint) === resource;
}

/** `a.b[0]`, `module.m["k"]`: the address ends with a key. */
function hasKey(address: string): boolean {
  return address.endsWith(']');
}

/** The removed statement that covers an instance address (a resource's instances, a module's contents), if any. */
export function removalOf(address: string, removals: readonly RemoveStatement[]): RemoveStatement | undefined {
  return removals.find((removal) => covers(removal.from, address, false));
}

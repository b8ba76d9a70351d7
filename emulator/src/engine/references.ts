// What an expression reads, found in its syntax tree: which sensitive values (so an argument or output that reads
// one is marked sensitive, however it is computed), and the values of everything it reads (so a fingerprint changes
// when a variable, local, module output or the instance's key behind an argument changes).
import type { Node } from 'web-tree-sitter';
import { referenceValue, type Scope } from './evaluate';
import { unknown } from './values';

/** Which values in a module are sensitive. */
export interface Sensitivity {
  variable(name: string): boolean;
  local(name: string): boolean;
  /** `module.<name>.<output>`; without an output, whether any of the module's outputs is. */
  moduleOutput(module: string, output?: string): boolean;
}

const references = new Set(['var', 'local', 'module', 'count', 'each', 'path']);

/** `var.x` → ['var', 'x']; for `module.net[0].out` also the output name. */
function referencesIn(node: Node): Array<{ node: Node; root: string; name: string; output?: string }> {
  const found = [];
  for (const variable of node.descendantsOfType('variable_expr')) {
    const root = variable?.text ?? '';
    const attribute = variable?.nextNamedSibling;
    if (!variable || !references.has(root) || attribute?.type !== 'get_attr') continue;
    const name = attribute.namedChildren[0]?.text ?? '';
    let after = attribute.nextNamedSibling;
    if (after?.type === 'index') after = after.nextNamedSibling;
    const output = root === 'module' && after?.type === 'get_attr' ? after.namedChildren[0]?.text : undefined;
    found.push({ node: variable, root, name, ...(output ? { output } : {}) });
  }
  return found;
}

export function readsSensitive(node: Node, sensitivity: Sensitivity): boolean {
  return referencesIn(node).some(({ root, name, output }) => {
    if (root === 'var') return sensitivity.variable(name);
    if (root === 'local') return sensitivity.local(name);
    return root === 'module' && sensitivity.moduleOutput(name, output);
  });
}

/** `[["var.x", value], …]` sorted by reference; unknown values are written as a marker that no real value equals. */
export function referencedValues(node: Node, scope: Scope): Array<[string, unknown]> {
  const values = new Map<string, unknown>();
  for (const { node: variable, root, name } of referencesIn(node)) {
    const value = referenceValue(variable, scope);
    values.set(`${root}.${name}`, value === unknown ? { unknown: true } : value);
  }
  return [...values.entries()].sort(([a], [b]) => a.localeCompare(b));
}

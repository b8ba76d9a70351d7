// Where tree-sitter had to recover from broken text. Bounded, so a binary file opened by mistake cannot flood
// the diagnostics.
import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from './contributions';
import { rangeOfNode } from './positions';

export const maxSyntaxProblems = 50;

export function findSyntaxProblems(root: Node): SyntaxProblem[] {
  if (!root.hasError) return [];
  const problems: SyntaxProblem[] = [];
  // An explicit stack, not recursion: broken input can nest deeper than the call stack allows.
  const pending: Node[] = [root];
  while (pending.length > 0 && problems.length < maxSyntaxProblems) {
    const node = pending.pop() as Node;
    if (node.isMissing) problems.push({ kind: 'missing', range: rangeOfNode(node), expected: node.type });
    else if (node.isError) problems.push({ kind: 'error', range: rangeOfNode(node) });
    else if (node.hasError) {
      const children = node.children;
      for (let index = children.length - 1; index >= 0; index--) {
        const child = children[index];
        if (child) pending.push(child);
      }
    }
  }
  return problems;
}

// Where tree-sitter had to recover from broken text. Bounded, so a binary file opened by mistake cannot flood
// the diagnostics.
import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from './contributions';
import { rangeOfNode } from './positions';

const maxProblems = 50;

export function findSyntaxProblems(root: Node): SyntaxProblem[] {
  if (!root.hasError) return [];
  const problems: SyntaxProblem[] = [];
  const visit = (node: Node) => {
    if (problems.length >= maxProblems) return;
    if (node.isMissing) {
      problems.push({ kind: 'missing', range: rangeOfNode(node), expected: node.type });
      return;
    }
    if (node.isError) {
      problems.push({ kind: 'error', range: rangeOfNode(node) });
      return;
    }
    if (!node.hasError) return;
    for (const child of node.children) if (child) visit(child);
  };
  visit(root);
  return problems;
}

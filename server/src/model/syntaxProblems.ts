// Where tree-sitter had to recover from broken text. Bounded, so a binary file opened by mistake cannot flood
// the diagnostics.
import type { Node } from 'web-tree-sitter';
import type { SyntaxProblem } from './contributions';
import { rangeOfNode } from './positions';
import { allSteps } from './steps';
import type { Steps } from './steps';

export const maxSyntaxProblems = 50;

export function findSyntaxProblems(root: Node): SyntaxProblem[] {
  return root.hasError ? allSteps(syntaxProblemSteps(root)) : [];
}

/**
 * findSyntaxProblems a step per node that holds an error: a broken 1 MB file can hold thousands of such nodes
 * (8-25 ms to walk them at once).
 */
export function* syntaxProblemSteps(root: Node): Steps<SyntaxProblem[]> {
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
      yield;
    }
  }
  return problems;
}

// What went wrong while evaluating, for whoever asks (the configuration check, `try` and `can`): a function called
// with arguments it does not take, a function Terraform does not have, an attribute or index a known value lacks.
// Evaluation is synchronous, so one collector at a time stands open and callers need no extra parameter: plans that
// do not ask pay nothing and see the same values as before.
import type { Node } from 'web-tree-sitter';
import type { FunctionProblem } from './functions';

export type EvaluationProblem =
  | { kind: 'function'; name: string; problem: FunctionProblem; call: Node; arguments: Node[] }
  /** A known value without the attribute or index read from it (Terraform's "Unsupported attribute", "Invalid index"). */
  | { kind: 'access'; node: Node };

let open: EvaluationProblem[] | undefined;

export function reportProblem(problem: EvaluationProblem): void {
  open?.push(problem);
}

/** Runs `evaluation` with its own collector: what it returned, and the problems met on the way. */
export function collectProblems<T>(evaluation: () => T): [T, EvaluationProblem[]] {
  const outer = open;
  const problems: EvaluationProblem[] = [];
  open = problems;
  try {
    return [evaluation(), problems];
  } finally {
    open = outer;
  }
}

// Run variables (spec §4.2: `variables`, each value an HCL literal): checked before queuePlan sends them, and one at a
// time while the user types them in Queue Plan (hcpTerraform/checkRunVariable), by the same rules, so what the input
// accepts the command accepts. Values are never quoted back: a run variable is often a secret.
import type { LiteralValue, ModuleFolderModel, TerraformParser } from '../model';
import { checkValueAgainstType, extractTfvarsFile } from '../model';
import type { RunVariableVerdict } from '../protocol';
import { invalidParams } from './errors';

const variableName = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** The variables as given, or an InvalidParams error naming the first one the service would refuse. */
export function validateRunVariables(parser: TerraformParser | undefined, variables: Array<{ key: string; value: string }>): Array<{ key: string; value: string }> {
  const seen = new Set<string>();
  for (const { key, value } of variables) {
    if (seen.has(key)) throw invalidParams(`Run variable "${key}" is given twice; give each variable once.`);
    seen.add(key);
    const problem = runVariableProblem(parser, key, value);
    if ('error' in problem) throw invalidParams(problem.error);
  }
  return variables;
}

/**
 * One run variable as Queue Plan's input sees it: an error when the service would refuse it; a warning when the
 * folder's code would not take it (the code on disk may not be the run's configuration, so it does not block).
 */
export function checkRunVariable(parser: TerraformParser | undefined, key: string, value: string, model: ModuleFolderModel | undefined): RunVariableVerdict {
  const problem = runVariableProblem(parser, key, value);
  if ('error' in problem) return { error: problem.error };
  if (!model) return {};
  const declaration = model.index.declarationsOf(key)[0];
  if (!declaration) {
    return { warning: `"${key}" is not declared in this folder's code: Terraform warns about an undeclared variable and does not use it.` };
  }
  if (problem.literal && declaration.type) {
    const mismatch = checkValueAgainstType(problem.literal.value, declaration.type.parsed, { hideValues: true });
    if (mismatch) return { warning: `"${key}" is declared as ${declaration.type.text}: ${mismatch.message}` };
  }
  return {};
}

/** `{ error }` when the service would refuse the variable; otherwise its literal (none while the parser loads). */
function runVariableProblem(parser: TerraformParser | undefined, key: string, value: string): { error: string } | { literal?: { value: LiteralValue } } {
  if (!variableName.test(key)) return { error: `Run variable "${key}" is not a valid variable name (letters, digits, _ and -; not starting with a digit).` };
  if (!parser) return {}; // the parser loads at start-up; the service validates too
  const notLiteral = {
    // Said as it is typed in HCL, not as JSON escapes it: an input box shows it as it is.
    error: `The value of run variable "${key}" is not an HCL literal: put a string in quotes (${key} = "text"), write numbers and bools as they are (3, true), lists and maps in HCL ([1, 2], { a = 1 }); expressions are not allowed.`,
  };
  if (value.trim() === '') return notLiteral;
  const tree = parser.parse(`${key} = ${value}\n`);
  try {
    const contribution = extractTfvarsFile(tree, 'run-variables.tfvars', 'hcl', false);
    const entry = contribution.entries.length === 1 ? contribution.entries[0] : undefined;
    if (contribution.syntaxProblems.length > 0 || !entry || entry.key !== key || !entry.literal) return notLiteral;
    return { literal: entry.literal };
  } finally {
    tree.delete();
  }
}

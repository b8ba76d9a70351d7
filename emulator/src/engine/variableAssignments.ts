// Where a remote run's root module variables get their values, in the order HCP Terraform and Terraform read them,
// a later source winning: environment variables `TF_VAR_<name>` (workspace variables of the env category), then the
// configuration's terraform.tfvars, terraform.tfvars.json, and *.auto.tfvars / *.auto.tfvars.json in name order
// (Terraform's own order), then the workspace's Terraform variables (the service hands them to Terraform after the
// files, as -var-file would be: "variables in the workspace always overwrite ... .auto.tfvars"), then the run's
// variables (-var on the CLI). A declared default applies only when no source sets the variable.
import type { LiteralValue, TerraformParser, TerraformType } from '../../../server/src/model';
import { extractTerraformFile, extractTfvarsFile } from '../../../server/src/model';
import type { Variable } from '../store/model';
import { readHclValue } from './hclValue';

export interface AssignedValue {
  /** The value as far as it is a literal; undefined for one that is not (the plan then uses the default). */
  value: LiteralValue | undefined;
  /** Where it came from, for a finding that names the source (never the value: it may be secret). */
  origin: string;
}

export function assignedVariables(
  parser: TerraformParser,
  files: ReadonlyMap<string, Buffer>,
  workspaceVariables: readonly Variable[],
  runVariables: ReadonlyArray<{ key: string; value: string }>,
): Map<string, AssignedValue> {
  const values = new Map<string, AssignedValue>();
  const types = declaredTypes(parser, files);
  for (const variable of workspaceVariables) {
    const name = /^TF_VAR_(.+)$/.exec(variable.key)?.[1];
    if (variable.category !== 'env' || !name) continue;
    values.set(name, { value: environmentValue(parser, variable.value, types.get(name)), origin: `environment variable ${variable.key}` });
  }
  for (const path of variableFiles(files)) {
    for (const [key, value] of fileValues(parser, path, files.get(path)!.toString('utf8'))) values.set(key, { value, origin: path });
  }
  for (const variable of workspaceVariables) {
    if (variable.category !== 'engine') continue;
    const value = variable.hcl ? readHclValue(parser, variable.value).literal?.value : variable.value;
    values.set(variable.key, { value, origin: `workspace variable ${variable.key}` });
  }
  for (const variable of runVariables) values.set(variable.key, { value: readHclValue(parser, variable.value).literal?.value, origin: "the run's variables" });
  return values;
}

/**
 * The variable files Terraform loads by itself from the root module, in its order: terraform.tfvars, its JSON form,
 * then the *.auto.tfvars(.json) files as the directory lists them (by name, byte order).
 */
export function variableFiles(files: ReadonlyMap<string, Buffer>): string[] {
  const root = [...files.keys()].filter((path) => !path.includes('/'));
  const auto = root.filter((path) => path.endsWith('.auto.tfvars') || path.endsWith('.auto.tfvars.json')).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [...['terraform.tfvars', 'terraform.tfvars.json'].filter((path) => files.has(path)), ...auto];
}

function fileValues(parser: TerraformParser, path: string, text: string): Array<[string, LiteralValue | undefined]> {
  if (path.endsWith('.json')) {
    try {
      const parsed: unknown = JSON.parse(text);
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.entries(parsed as Record<string, LiteralValue>) : [];
    } catch {
      return []; // Terraform fails the run on a broken file; the configuration check is where that would be said.
    }
  }
  const tree = parser.parse(text);
  try {
    return extractTfvarsFile(tree, path, 'hcl', true).entries.map((entry) => [entry.key, entry.literal?.value]);
  } finally {
    tree.delete();
  }
}

/**
 * An environment variable is text: Terraform takes it as the string itself for a variable with no type or a
 * primitive one (then converts "9" to a number), and parses it as HCL for any other type (configs.decodeVariableType).
 */
function environmentValue(parser: TerraformParser, text: string, type: TerraformType | undefined): LiteralValue | undefined {
  const literal = type === undefined || type.kind === 'string' || type.kind === 'number' || type.kind === 'bool';
  return literal ? text : readHclValue(parser, text).literal?.value;
}

/** The root module's declared variable types (undefined for a variable declared without one). */
function declaredTypes(parser: TerraformParser, files: ReadonlyMap<string, Buffer>): Map<string, TerraformType | undefined> {
  const types = new Map<string, TerraformType | undefined>();
  for (const [path, content] of files) {
    if (!path.endsWith('.tf') || path.includes('/')) continue;
    const text = content.toString('utf8');
    const tree = parser.parse(text);
    try {
      for (const variable of extractTerraformFile(tree, path, (start, end) => parser.parseRegion(text, start, end)).variables) types.set(variable.name, variable.type?.parsed);
    } finally {
      tree.delete();
    }
  }
  return types;
}

// Where a variable's value comes from, as a run in the linked workspace would see it. Terraform's precedence, lowest
// to highest: the default, an `env` workspace variable TF_VAR_<name>, auto-loaded tfvars files (in load order), an
// `engine` workspace variable, a run variable (per queued run only, so not known here).
import path from 'node:path';
import type { Range, VariableDeclaration } from '../model';
import type { FolderFacts } from './folderFacts';
import type { SnapshotVariable } from './host';
import type { SnapshotIndex } from './snapshotIndex';
import { envVariablePrefix } from './snapshotIndex';

export type ValueSourceKind = 'default' | 'env-workspace-variable' | 'tfvars' | 'engine-workspace-variable';

export interface ValueSource {
  kind: ValueSourceKind;
  /** For people: `default`, `terraform.tfvars`, `workspace variable (demo-app)`, `workspace env TF_VAR_region (demo-app)`. */
  label: string;
  /** Where it is written in the code (default, tfvars entry). */
  file?: string;
  range?: Range;
  /** The workspace variable behind it. */
  variable?: SnapshotVariable;
  /** Display text of this source's value; undefined when hidden (sensitive) or unknown. */
  text?: string;
}

export interface ResolvedValue {
  /** Display text of the value a run would use; undefined when hidden or when there is none. */
  value?: string;
  /** The variable or the winning workspace variable is sensitive: the value is never shown. */
  hidden: boolean;
  /** The winning source; undefined when nothing sets the variable. */
  source?: ValueSource;
  /** Lower-precedence sources that also set it, highest first. */
  overridden: ValueSource[];
  /** False while the workspace's variables are unknown: the answer only reflects the code. */
  workspaceKnown: boolean;
}

const maxShownLength = 120;

/** Resolves `name` (declared or not) against the code and the workspace snapshot. O(sources of this name). */
export function resolveVariableValue(name: string, facts: FolderFacts, snapshot: SnapshotIndex): ResolvedValue {
  const declaration: VariableDeclaration | undefined = facts.variablesByName.get(name);
  const sensitiveInCode = declaration?.sensitive === true;
  const sources: ValueSource[] = []; // lowest first
  if (declaration?.default) {
    sources.push({ kind: 'default', label: 'default', file: declaration.file, range: declaration.default.range, text: declaration.default.text });
  }
  const workspaceName = snapshot.workspace?.name ?? 'workspace';
  const env = snapshot.envByVariableName.get(name);
  if (env) {
    sources.push({ kind: 'env-workspace-variable', label: `workspace environment variable ${envVariablePrefix}${name} (${workspaceName})`, variable: env, text: workspaceText(env, true) });
  }
  for (const entry of facts.autoLoadedTfvarsByKey.get(name) ?? []) {
    sources.push({ kind: 'tfvars', label: path.basename(entry.file), file: entry.file, range: entry.range, text: entry.valueText });
  }
  const engine = snapshot.engineByKey.get(name);
  if (engine) sources.push({ kind: 'engine-workspace-variable', label: `workspace variable (${workspaceName})`, variable: engine, text: workspaceText(engine, false) });

  const hidden = sensitiveInCode || sources.some((source) => source.variable?.sensitive === true);
  if (hidden) for (const source of sources) source.text = undefined;
  else for (const source of sources) source.text = source.text === undefined ? undefined : shorten(source.text);
  const winner = sources.at(-1);
  return {
    value: winner?.text,
    hidden,
    source: winner,
    overridden: sources.slice(0, -1).reverse(),
    workspaceKnown: snapshot.variablesKnown,
  };
}

/** The value as Terraform reads it: HCL values as written, plain strings quoted. Env TF_VAR values are raw text. */
function workspaceText(variable: SnapshotVariable, raw: boolean): string | undefined {
  if (variable.sensitive || variable.value === undefined) return undefined;
  return variable.hcl || raw ? variable.value : JSON.stringify(variable.value);
}

function shorten(text: string): string {
  const oneLine = text.replace(/\s*\n\s*/g, ' ');
  return oneLine.length > maxShownLength ? `${oneLine.slice(0, maxShownLength - 1)}…` : oneLine;
}

/** A short phrase for completion details: "from terraform.tfvars", "no value". */
export function describeSource(resolved: ResolvedValue): string {
  if (!resolved.source) return resolved.workspaceKnown ? 'no value' : 'no value in the code';
  return `from ${resolved.source.label}`;
}

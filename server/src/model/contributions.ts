// What one file contributes to its module folder's model. Each file's contribution is computed from that file
// alone, so an edit re-extracts one file and swaps its contribution without touching the others.
import type { LiteralValue } from './hclLiterals';
import type { Range } from './positions';
import type { TerraformType } from './typeExpression';

export interface VariableDeclaration {
  name: string;
  /** Absolute path of the declaring file. */
  file: string;
  /** The whole `variable "x" { ... }` block. */
  range: Range;
  /** The `"x"` label. */
  nameRange: Range;
  type?: { text: string; range: Range; parsed: TerraformType };
  /** `literal` is present when the default is a literal (it may be `{ value: null }`). */
  default?: { text: string; range: Range; literal?: { value: LiteralValue } };
  description?: string;
  /** Terraform's defaults: not sensitive, nullable. */
  sensitive: boolean;
  nullable: boolean;
}

/**
 * A `var.x` reference. `name` is empty while the user is still typing (`var.` with nothing after it).
 * Its positions are plain numbers on the one object, not ranges of their own: a 1 MB file has 30,000 references,
 * and an Enter above them moves every one (three numbers each here; four positions, two ranges and the reference
 * itself were seven objects to reach, and moving them was most of an Enter's time). referenceRange and
 * referenceNameRange (references.ts) give the ranges.
 */
export interface VariableReference {
  name: string;
  file: string;
  /** Where `var` starts. */
  line: number;
  character: number;
  /** Where the name starts (right after the dot; the name is empty while it is missing). */
  nameLine: number;
  nameCharacter: number;
  /** Where the reference, and its name, end. */
  endLine: number;
  endCharacter: number;
}

export type AddressKind = 'resource' | 'data' | 'ephemeral' | 'module';

/** Something a run can target: `aws_instance.web`, `data.aws_ami.x`, `ephemeral.random_password.p`, `module.net`. */
export interface TargetAddress {
  address: string;
  kind: AddressKind;
  /** The resource/data source type; absent for modules. */
  type?: string;
  name: string;
  file: string;
  range: Range;
  /** From the first label to the last (`"aws_instance" "web"`). */
  labelsRange: Range;
  /** Module calls: the `source` when it is a literal string (a local path starts with `./` or `../`). */
  source?: string;
  /**
   * Resources and data sources: their top-level arguments as written, each with where it ends (a hint after the ones
   * a plan changes goes there). Numbers, not a range: an Enter above moves 12,000 of them in the bench's 1 MB file.
   */
  attributes?: Array<{ name: string; endLine: number; endCharacter: number }>;
}

/** A `moved { from = … to = … }` block: Terraform follows it, so a plan naming `from` is about the block at `to`. */
export interface MovedBlock {
  /** The addresses as written, without spaces (`aws_instance.a`, `module.old`, `aws_instance.a[0]`). */
  from: string;
  to: string;
  file: string;
  range: Range;
}

/** A literal-or-not attribute of a `cloud` / `backend` block, with where it is written. */
export interface ConfigSetting<T> {
  /** Undefined when the expression is not a literal of the expected kind (Terraform requires literals here). */
  value?: T;
  text: string;
  range: Range;
}

export interface CloudBlock {
  file: string;
  range: Range;
  hostname?: ConfigSetting<string>;
  organization?: ConfigSetting<string>;
  workspaces?: {
    range: Range;
    name?: ConfigSetting<string>;
    /** `tags = ["a", "b"]` (a set of names) or `tags = { env = "prod" }` (key/value tags). */
    tags?: ConfigSetting<string[] | Record<string, string>>;
    project?: ConfigSetting<string>;
  };
}

export interface RemoteBackendBlock {
  file: string;
  range: Range;
  hostname?: ConfigSetting<string>;
  organization?: ConfigSetting<string>;
  workspaces?: { range: Range; name?: ConfigSetting<string>; prefix?: ConfigSetting<string> };
}

export interface SyntaxProblem {
  range: Range;
  /** `error`: text tree-sitter could not place; `missing`: a token it had to assume (e.g. a closing brace). */
  kind: 'error' | 'missing';
  /** For `missing`: the token that is missing, e.g. `}`. */
  expected?: string;
}

export interface TerraformFileContribution {
  kind: 'terraform';
  file: string;
  variables: VariableDeclaration[];
  /** In document order (by start), never overlapping: hover finds one by binary search (features/rangeSearch.ts). */
  references: VariableReference[];
  addresses: TargetAddress[];
  /** Optional so contributions built elsewhere (tests) stay valid; the extractor always sets it. */
  moved?: MovedBlock[];
  cloudBlocks: CloudBlock[];
  remoteBackends: RemoteBackendBlock[];
  syntaxProblems: SyntaxProblem[];
}

/** `valueText` and `literal` can be secrets (a sensitive variable's value): never log them or echo them in messages. */
export interface TfvarsEntry {
  key: string;
  file: string;
  /** The whole `key = value` line (or `"key": value` member in JSON). */
  range: Range;
  keyRange: Range;
  valueText: string;
  valueRange: Range;
  /** Present when the value is a literal (HCL) — always for valid JSON. */
  literal?: { value: LiteralValue };
}

export interface TfvarsFileContribution {
  kind: 'tfvars';
  file: string;
  format: 'hcl' | 'json';
  /** Whether Terraform loads it without `-var-file` (terraform.tfvars[.json], *.auto.tfvars[.json]). */
  autoLoaded: boolean;
  entries: TfvarsEntry[];
  syntaxProblems: SyntaxProblem[];
  /** A JSON file that JSON.parse rejects: its message (entries are still read from the syntax tree). */
  jsonError?: { message: string; range: Range };
}

export type FileContribution = TerraformFileContribution | TfvarsFileContribution;

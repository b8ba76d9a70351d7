// Reading workspace variable values the way a run would: HCL-flagged values are parsed as an HCL expression with the
// model's tree-sitter parser (wrapped as `x = <value>`); plain values are strings. Results are cached per variable
// object (snapshots are immutable), so 2,000 workspace variables are parsed once, not on every keystroke.
import type { LiteralValue, TerraformParser, TerraformType } from '../model';
import { readLiteral } from '../model';
import type { SnapshotVariable } from './host';

export type ParsedWorkspaceValue =
  /** `literal` is undefined when the expression is valid but not a literal (e.g. a function call). */
  | { ok: true; literal?: { value: LiteralValue } }
  | { ok: false };

const cache = new WeakMap<SnapshotVariable, ParsedWorkspaceValue>();

/** Parses an HCL expression. Anything beyond one expression (a second attribute, stray text) makes it invalid. */
export function parseHclExpression(parser: TerraformParser, text: string): ParsedWorkspaceValue {
  const tree = parser.parse(`x = ${text}\n`);
  try {
    const root = tree.rootNode;
    if (root.hasError) return { ok: false };
    const body = root.namedChildren.filter((node) => node !== null && node.type !== 'comment');
    const attributes = body.length === 1 ? body[0]!.namedChildren.filter((node) => node !== null && node.type !== 'comment') : [];
    const attribute = attributes.length === 1 && attributes[0]!.type === 'attribute' ? attributes[0]! : undefined;
    const expression = attribute?.namedChildren.find((node) => node?.type === 'expression');
    if (!expression) return { ok: false };
    const literal = readLiteral(expression);
    return literal ? { ok: true, literal } : { ok: true };
  } finally {
    tree.delete();
  }
}

/** The parse result of an HCL workspace variable (sensitive ones have no readable value: undefined). */
export function parsedHclValue(parser: TerraformParser, variable: SnapshotVariable): ParsedWorkspaceValue | undefined {
  if (!variable.hcl || variable.value === undefined || variable.sensitive) return undefined;
  let parsed = cache.get(variable);
  if (!parsed) {
    parsed = parseHclExpression(parser, variable.value);
    cache.set(variable, parsed);
  }
  return parsed;
}

/**
 * The literal value Terraform would see for a workspace variable, for type checks. `env` TF_VAR values are raw text
 * that Terraform parses as HCL only for complex types; `engine` values are HCL when flagged, else strings.
 */
export function workspaceLiteral(parser: TerraformParser, variable: SnapshotVariable, type: TerraformType): { value: LiteralValue } | undefined {
  if (variable.value === undefined || variable.sensitive) return undefined;
  const primitive = type.kind === 'string' || type.kind === 'number' || type.kind === 'bool' || type.kind === 'any' || type.kind === 'unknown';
  const asHcl = variable.category === 'env' ? !primitive : variable.hcl;
  if (!asHcl) return { value: variable.value };
  if (variable.category === 'env') return literalOf(parseHclExpression(parser, variable.value));
  const parsed = parsedHclValue(parser, variable);
  return parsed ? literalOf(parsed) : undefined;
}

function literalOf(parsed: ParsedWorkspaceValue): { value: LiteralValue } | undefined {
  return parsed.ok ? parsed.literal : undefined;
}

/** A type for a new `variable` block, guessed from a workspace value (`any` when nothing better is known). */
export function guessTypeOf(parser: TerraformParser | undefined, variable: SnapshotVariable): string {
  if (variable.value === undefined) return 'string';
  // A plain value is a string that Terraform converts when the declared type asks for it: guess what it spells.
  if (!variable.hcl) return /^-?\d+(\.\d+)?$/.test(variable.value) ? 'number' : variable.value === 'true' || variable.value === 'false' ? 'bool' : 'string';
  const parsed = parser ? parsedHclValue(parser, variable) : undefined;
  const value = parsed?.ok ? parsed.literal?.value : undefined;
  if (value === undefined) return 'any';
  return typeNameOf(value);
}

/** A type for a new `variable` block, guessed from a literal value (a tfvars entry's). */
export function typeNameOf(value: LiteralValue): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  if (value === null) return 'any';
  if (Array.isArray(value)) {
    const kinds = new Set(value.map(typeNameOf));
    return kinds.size === 1 ? `list(${[...kinds][0]})` : 'list(any)';
  }
  const kinds = new Set(Object.values(value).map(typeNameOf));
  return kinds.size === 1 ? `map(${[...kinds][0]})` : 'map(any)';
}

// An HCL value given as text (a workspace variable with HCL on, a run variable), read as the expression of
// `value = <text>` by the same tree-sitter grammar and literal reader the language server uses, so the emulator
// accepts, rejects and evaluates exactly what the editor does.
import type { LiteralValue, TerraformParser } from '../../../server/src/model';
import { readLiteral } from '../../../server/src/model';
import { attributeValue, bodyItems } from '../../../server/src/model/syntaxTree';

export interface HclValueReading {
  /** The text is one well-formed HCL expression. */
  parses: boolean;
  /** Present when that expression is a literal (no references, function calls or `${…}` templates). */
  literal?: { value: LiteralValue };
}

export function readHclValue(parser: TerraformParser, text: string): HclValueReading {
  const tree = parser.parse(`value = ${text}\n`);
  try {
    // `"a"\nb = 1` parses as two attributes: that is not one value.
    const items = bodyItems(tree.rootNode);
    const expression = !tree.rootNode.hasError && items.length === 1 ? attributeValue(items[0]!) : undefined;
    if (!expression) return { parses: false };
    const literal = readLiteral(expression);
    return literal ? { parses: true, literal } : { parses: true };
  } finally {
    tree.delete();
  }
}

/** Run variables' values must be HCL literals (spec §4.2): `"text"`, `42`, `true`, `null`, `["a", 1]`, `{ k = "v" }`. */
export function isHclLiteral(parser: TerraformParser, text: string): boolean {
  return readHclValue(parser, text).literal !== undefined;
}

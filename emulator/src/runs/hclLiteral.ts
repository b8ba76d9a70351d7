// Run variables' values must be HCL literals (spec §4.2): `"text"` (quoted), `42`, `true`, `null`, `["a", 1]`,
// `{ name = "x", port = 80 }`. No references, function calls or `${…}` templates. The value is read as the
// expression of `value = <text>` by the same tree-sitter grammar and literal reader the language server uses, so
// the emulator accepts exactly what the editor calls a literal.
import type { TerraformParser } from '../../../server/src/model';
import { readLiteral } from '../../../server/src/model';
import { attributeValue, bodyItems } from '../../../server/src/model/syntaxTree';

export function isHclLiteral(parser: TerraformParser, text: string): boolean {
  // `"a"\nb = 1` parses as two attributes: that is not one value.
  const tree = parser.parse(`value = ${text}\n`);
  try {
    if (tree.rootNode.hasError) return false;
    const items = bodyItems(tree.rootNode);
    if (items.length !== 1) return false;
    const expression = attributeValue(items[0]!);
    return expression !== undefined && readLiteral(expression) !== undefined;
  } finally {
    tree.delete();
  }
}

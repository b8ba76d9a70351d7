// `variable "name" { type, default, description, sensitive, nullable }` → VariableDeclaration.
import type { Node } from 'web-tree-sitter';
import type { VariableDeclaration } from './contributions';
import { readLiteral } from './hclLiterals';
import { rangeOfNode } from './positions';
import { blockAttributes, blockLabelNodes, labelValue } from './syntaxTree';
import type { AttributeParts } from './syntaxTree';
import { parseTypeExpression } from './typeExpression';

/** Undefined for a `variable` block without a name label (still being typed). */
export function readVariableBlock(block: Node, file: string): VariableDeclaration | undefined {
  const [nameLabel] = blockLabelNodes(block);
  if (!nameLabel) return undefined;
  const name = labelValue(nameLabel);
  if (!name) return undefined;
  const attributes = blockAttributes(block);
  const declaration: VariableDeclaration = {
    name,
    file,
    range: rangeOfNode(block),
    nameRange: rangeOfNode(nameLabel),
    sensitive: booleanAttribute(attributes.get('sensitive')) ?? false,
    nullable: booleanAttribute(attributes.get('nullable')) ?? true,
  };
  const typeExpression = valueOf(attributes.get('type'));
  if (typeExpression) {
    declaration.type = { text: typeExpression.text, range: rangeOfNode(typeExpression), parsed: parseTypeExpression(typeExpression) };
  }
  const defaultExpression = valueOf(attributes.get('default'));
  if (defaultExpression) {
    const literal = readLiteral(defaultExpression);
    declaration.default = { text: defaultExpression.text, range: rangeOfNode(defaultExpression), ...(literal ? { literal } : {}) };
  }
  const description = valueOf(attributes.get('description'));
  const descriptionValue = description ? readLiteral(description)?.value : undefined;
  if (typeof descriptionValue === 'string') declaration.description = descriptionValue;
  return declaration;
}

function valueOf(attribute: AttributeParts | undefined): Node | undefined {
  return attribute?.value;
}

/** `sensitive = true`; also the string "true", which Terraform converts. Anything else: not set. */
function booleanAttribute(attribute: AttributeParts | undefined): boolean | undefined {
  const expression = valueOf(attribute);
  const value = expression ? readLiteral(expression)?.value : undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  return undefined;
}

// `variable "name" { type, default, description, sensitive, nullable }` → VariableDeclaration.
import type { Node } from 'web-tree-sitter';
import type { VariableDeclaration } from './contributions';
import { readLiteral } from './hclLiterals';
import type { LiteralValue } from './hclLiterals';
import { rangeOfNode } from './positions';
import { blockAttributes, blockLabelNodes, labelValue } from './syntaxTree';
import type { AttributeParts } from './syntaxTree';
import { parseTypeExpression } from './typeExpression';
import type { TerraformType } from './typeExpression';

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
    const text = typeExpression.text;
    declaration.type = { text, range: rangeOfNode(typeExpression), parsed: typeCache.get(text, () => parseTypeExpression(typeExpression)) };
  }
  const defaultExpression = valueOf(attributes.get('default'));
  if (defaultExpression) {
    const text = defaultExpression.text;
    const literal = literalCache.get(text, () => readLiteral(defaultExpression));
    declaration.default = { text, range: rangeOfNode(defaultExpression), ...(literal ? { literal } : {}) };
  }
  const description = valueOf(attributes.get('description'));
  const descriptionValue = description ? readLiteral(description)?.value : undefined;
  if (typeof descriptionValue === 'string') declaration.description = descriptionValue;
  return declaration;
}

/**
 * A type constraint or default is a pure function of its text, and modules repeat the same few (`string`,
 * `list(string)`, `{}`) hundreds of times: reading each distinct text once keeps indexing a large module fast.
 * Cached values are frozen, because every declaration with that text shares them.
 */
class TextMemo<T> {
  private readonly entries = new Map<string, T>();
  constructor(private readonly limit: number) {}

  get(text: string, compute: () => T): T {
    // Long texts (a big default map) are rarely repeated and would pin memory as keys: read them uncached.
    if (text.length > maxMemoizedText) return deepFreeze(compute());
    const known = this.entries.get(text);
    if (known !== undefined || this.entries.has(text)) return known as T;
    if (this.entries.size >= this.limit) this.entries.clear();
    const value = deepFreeze(compute());
    this.entries.set(text, value);
    return value;
  }
}

const maxMemoizedText = 512;
const typeCache = new TextMemo<TerraformType>(2000);
const literalCache = new TextMemo<{ value: LiteralValue } | undefined>(2000);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
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

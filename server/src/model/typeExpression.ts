// Terraform type constraints (`type = map(object({ port = number }))`) read from the syntax tree into a structure
// that value checks and hovers can use. Unknown or half-typed constraints become `unknown` (nothing can be
// checked against them) instead of an error: the user is probably still typing.
import type { Node } from 'web-tree-sitter';
import { objectKeyOf, readLiteral } from './hclLiterals';
import type { LiteralValue } from './hclLiterals';

export type TerraformType =
  | { kind: 'string' | 'number' | 'bool' | 'any' }
  | { kind: 'list' | 'set' | 'map'; element: TerraformType }
  | { kind: 'tuple'; elements: TerraformType[] }
  | { kind: 'object'; attributes: ObjectAttributeType[] }
  | { kind: 'unknown'; text: string };

export interface ObjectAttributeType {
  name: string;
  type: TerraformType;
  /** `optional(T)` / `optional(T, default)`: the attribute may be left out. */
  optional: boolean;
  /** The literal default of `optional(T, default)`, when there is one. */
  default?: { value: LiteralValue };
}

const maxDepth = 100;

/** Parses the expression of a `type = ...` attribute. */
export function parseTypeExpression(expression: Node): TerraformType {
  return typeOf(expression, 0);
}

function typeOf(node: Node, depth: number): TerraformType {
  const unknown: TerraformType = { kind: 'unknown', text: node.text };
  if (depth > maxDepth || node.hasError) return unknown;
  const inner = singleChild(node);
  if (!inner) return unknown;
  if (inner.type === 'variable_expr') return primitiveNamed(inner.text) ?? unknown;
  if (inner.type === 'literal_value' || inner.type === 'template_expr') return legacyQuotedType(inner) ?? unknown;
  if (inner.type === 'function_call') return constructorType(inner, depth) ?? unknown;
  return unknown;
}

function singleChild(node: Node): Node | undefined {
  if (node.type !== 'expression') return node;
  if (node.namedChildCount === 1) {
    const only = node.firstNamedChild;
    return only && only.type === 'expression' ? singleChild(only) : (only ?? undefined);
  }
  const children = node.namedChildren.filter((child): child is Node => child !== null && child.type !== 'comment');
  if (children.length !== 1) return undefined;
  return children[0].type === 'expression' ? singleChild(children[0]) : children[0];
}

function primitiveNamed(name: string): TerraformType | undefined {
  return name === 'string' || name === 'number' || name === 'bool' || name === 'any' ? { kind: name } : undefined;
}

/** Terraform 0.11 wrote types as strings ("string", "list", "map"); old modules still carry them. */
function legacyQuotedType(node: Node): TerraformType | undefined {
  const literal = readLiteral(node);
  if (typeof literal?.value !== 'string') return undefined;
  if (literal.value === 'list' || literal.value === 'map') return { kind: literal.value, element: { kind: 'any' } };
  return primitiveNamed(literal.value);
}

function constructorType(call: Node, depth: number): TerraformType | undefined {
  const name = call.firstNamedChild?.text;
  const args = functionArguments(call);
  switch (name) {
    case 'list':
    case 'set':
    case 'map':
      return args.length === 1 ? { kind: name, element: typeOf(args[0], depth + 1) } : undefined;
    case 'tuple': {
      const tuple = args.length === 1 ? collectionOf(args[0], 'tuple') : undefined;
      if (!tuple) return undefined;
      return { kind: 'tuple', elements: expressionsIn(tuple).map((element) => typeOf(element, depth + 1)) };
    }
    case 'object': {
      const object = args.length === 1 ? collectionOf(args[0], 'object') : undefined;
      return object ? { kind: 'object', attributes: objectAttributes(object, depth) } : undefined;
    }
    default:
      return undefined;
  }
}

function objectAttributes(object: Node, depth: number): ObjectAttributeType[] {
  const attributes: ObjectAttributeType[] = [];
  for (const element of object.namedChildren) {
    if (!element || element.type !== 'object_elem') continue;
    const keyNode = element.childForFieldName('key');
    const valueNode = element.childForFieldName('val');
    const name = keyNode ? objectKeyOf(keyNode) : undefined;
    if (name === undefined || !valueNode) continue;
    attributes.push(attributeType(name, valueNode, depth));
  }
  return attributes;
}

function attributeType(name: string, valueNode: Node, depth: number): ObjectAttributeType {
  const inner = singleChild(valueNode);
  if (inner?.type === 'function_call' && inner.firstNamedChild?.text === 'optional') {
    const [typeArgument, defaultArgument] = functionArguments(inner);
    const type = typeArgument ? typeOf(typeArgument, depth + 1) : { kind: 'unknown' as const, text: inner.text };
    const defaultValue = defaultArgument ? readLiteral(defaultArgument) : undefined;
    return { name, type, optional: true, ...(defaultValue ? { default: defaultValue } : {}) };
  }
  return { name, type: typeOf(valueNode, depth + 1), optional: false };
}

function functionArguments(call: Node): Node[] {
  const argumentList = call.namedChildren.find((child) => child?.type === 'function_arguments');
  return argumentList ? expressionsIn(argumentList) : [];
}

function expressionsIn(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => child?.type === 'expression');
}

function collectionOf(expression: Node, type: 'tuple' | 'object'): Node | undefined {
  const inner = singleChild(expression);
  const collection = inner?.type === 'collection_value' ? inner.firstNamedChild : undefined;
  return collection?.type === type ? collection : undefined;
}

/** Canonical Terraform spelling of a type, for hovers and messages. */
export function typeToString(type: TerraformType): string {
  switch (type.kind) {
    case 'string':
    case 'number':
    case 'bool':
    case 'any':
      return type.kind;
    case 'list':
    case 'set':
    case 'map':
      return `${type.kind}(${typeToString(type.element)})`;
    case 'tuple':
      return `tuple([${type.elements.map(typeToString).join(', ')}])`;
    case 'object':
      return `object({ ${type.attributes.map(attributeToString).join(', ')} })`;
    case 'unknown':
      return type.text;
  }
}

function attributeToString(attribute: ObjectAttributeType): string {
  const type = typeToString(attribute.type);
  if (!attribute.optional) return `${attribute.name} = ${type}`;
  const defaultText = attribute.default ? `, ${JSON.stringify(attribute.default.value)}` : '';
  return `${attribute.name} = optional(${type}${defaultText})`;
}

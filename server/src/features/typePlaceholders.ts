// A value of a declared type to start from, as the Add "<name>" to terraform.tfvars quick fix writes it: the
// smallest literal the type accepts, so the file is valid (and the variable has a value) before the user types the
// real one. An object gets its required attributes, each a placeholder of its own type; optional ones are left out.
import type { TerraformType } from '../model';

export function placeholderFor(type: TerraformType | undefined): string {
  switch (type?.kind) {
    case 'number':
      return '0';
    case 'bool':
      return 'false';
    case 'list':
    case 'set':
      return '[]';
    case 'tuple':
      return `[${type.elements.map(placeholderFor).join(', ')}]`;
    case 'map':
      return '{}';
    case 'object': {
      const required = type.attributes.filter((attribute) => !attribute.optional);
      if (required.length === 0) return '{}';
      return `{ ${required.map((attribute) => `${attributeKey(attribute.name)} = ${placeholderFor(attribute.type)}`).join(', ')} }`;
    }
    default:
      // string, any, no type, or one still being typed (unknown): a string is the value these all take.
      return '""';
  }
}

/** An object key as HCL reads it back: bare when it is an identifier, else quoted. */
function attributeKey(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) ? name : JSON.stringify(name);
}

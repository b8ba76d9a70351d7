/**
 * Variables of the deprecated /vars interface (spec §2.4, notes §10). The spec calls the engine category `engine`;
 * the real service sends `terraform` — both read as `engine`, so the rest of the extension sees one name.
 */
import { z } from 'zod';
import { documentSchema, listDocumentSchema, resourceSchema } from './jsonapi';

/** `engine` and `env` are the spec's; any other category the service invents is kept as sent. */
export const variableCategorySchema = z.string().transform((category) => (category === 'terraform' ? 'engine' : category));
export type VariableCategory = 'engine' | 'env' | (string & {});

export const variableAttributesSchema = z.looseObject({
  key: z.string(),
  /** Null (or absent) for sensitive variables: their value is write-only. */
  value: z.string().nullish(),
  description: z.string().nullish(),
  category: variableCategorySchema,
  hcl: z.boolean().nullish(),
  sensitive: z.boolean().nullish(),
});

export const variableSchema = resourceSchema(variableAttributesSchema);
export type Variable = z.infer<typeof variableSchema>;
export const variableDocumentSchema = documentSchema(variableSchema);
export const variableListDocumentSchema = listDocumentSchema(variableSchema);

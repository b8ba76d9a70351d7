/** `GET /account/details` (notes §2): who the token belongs to; team and organization tokens read as service users. */
import { z } from 'zod';
import { documentSchema, resourceSchema } from './jsonapi';

export const accountAttributesSchema = z.looseObject({
  username: z.string().nullish(),
  email: z.string().nullish(),
  'is-service-account': z.boolean().nullish(),
  'avatar-url': z.string().nullish(),
});
export const accountSchema = resourceSchema(accountAttributesSchema);
export type Account = z.infer<typeof accountSchema>;
export const accountDocumentSchema = documentSchema(accountSchema);

/**
 * Change requests (spec §2.5, notes §8). Their response fields are "not shown" in the spec and the public sources
 * disagree (type spelling, `archived-at` vs `archived-by`), so every attribute is optional and `isArchived`
 * reads whichever marking is present.
 */
import { z } from 'zod';
import { anyResourceSchema, documentSchema, listDocumentSchema, resourceSchema } from './jsonapi';

export const changeRequestAttributesSchema = z.looseObject({
  subject: z.string().nullish(),
  message: z.string().nullish(),
  archived: z.boolean().nullish(),
  'archived-at': z.string().nullish(),
  'archived-by': z.unknown().optional(),
  'created-at': z.string().nullish(),
  'updated-at': z.string().nullish(),
});

export const changeRequestSchema = resourceSchema(changeRequestAttributesSchema);
export type ChangeRequest = z.infer<typeof changeRequestSchema>;
export const changeRequestDocumentSchema = documentSchema(changeRequestSchema);
export const changeRequestListDocumentSchema = listDocumentSchema(changeRequestSchema);

/** The bulk-action create answers with "the created change request"; its shape is not shown, so any resource is accepted. */
export const bulkActionDocumentSchema = documentSchema(anyResourceSchema);

export function isArchived(changeRequest: ChangeRequest): boolean {
  const attributes = changeRequest.attributes;
  return Boolean(
    attributes.archived ||
      attributes['archived-at'] ||
      (attributes['archived-by'] !== undefined && attributes['archived-by'] !== null) ||
      changeRequest.relationships?.['archived-by-user']?.data,
  );
}

/**
 * The JSON:API envelope shared by every response: resources, relationships, compound documents and pagination.
 * Everything is loose (unknown members are kept, not rejected): the service adds fields over time and the
 * client must keep working. Only what the client relies on is required.
 */
import { z } from 'zod';

export const resourceIdentifierSchema = z.looseObject({ id: z.string(), type: z.string() });
export type ResourceIdentifier = z.infer<typeof resourceIdentifierSchema>;

export const relationshipSchema = z.looseObject({
  data: z.union([resourceIdentifierSchema, z.array(resourceIdentifierSchema)]).nullish(),
  links: z.record(z.string(), z.unknown()).nullish(),
});
export type Relationship = z.infer<typeof relationshipSchema>;

const linksSchema = z.record(z.string(), z.unknown());

/** A resource of any type, attributes unchecked: what `included` holds. */
export const anyResourceSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  attributes: z.record(z.string(), z.unknown()).optional(),
  relationships: z.record(z.string(), relationshipSchema).optional(),
  links: linksSchema.nullish(),
});
export type AnyResource = z.infer<typeof anyResourceSchema>;

/** A resource whose attributes follow `attributes` (itself loose). */
export function resourceSchema<A extends z.ZodType>(attributes: A) {
  return z.looseObject({
    id: z.string(),
    type: z.string(),
    attributes,
    relationships: z.record(z.string(), relationshipSchema).optional(),
    links: linksSchema.nullish(),
  });
}

export function documentSchema<R extends z.ZodType>(resource: R) {
  return z.looseObject({ data: resource, included: z.array(anyResourceSchema).optional() });
}

const pageNumber = z.number().int().nullish();

/** `meta.pagination` (notes §1.6); the organization run list leaves out the totals. */
export const paginationSchema = z.looseObject({
  'current-page': pageNumber,
  'page-size': pageNumber,
  'prev-page': pageNumber,
  'next-page': pageNumber,
  'total-pages': pageNumber,
  'total-count': pageNumber,
});
export type Pagination = z.infer<typeof paginationSchema>;

export function listDocumentSchema<R extends z.ZodType>(resource: R) {
  return z.looseObject({
    data: z.array(resource),
    included: z.array(anyResourceSchema).optional(),
    links: z.record(z.string(), z.string().nullish()).nullish(),
    meta: z.looseObject({ pagination: paginationSchema.nullish() }).nullish(),
  });
}

/** The JSON:API error document. `status` is a string everywhere except the documented 429 body, where it is a number. */
export const errorDocumentSchema = z.looseObject({
  errors: z.array(
    z.union([
      z.looseObject({
        status: z.union([z.string(), z.number()]).nullish(),
        title: z.string().nullish(),
        detail: z.string().nullish(),
        source: z.looseObject({ pointer: z.string().nullish() }).nullish(),
      }),
      // Older endpoints answer `{"errors": ["text", ...]}`.
      z.string(),
    ]),
  ),
});

/** The id of a to-one relationship, if set. */
export function relatedId(resource: { relationships?: Record<string, Relationship> }, name: string): string | undefined {
  const data = resource.relationships?.[name]?.data;
  return data && !Array.isArray(data) ? data.id : undefined;
}

/** Finds the included resource a to-one relationship points at. */
export function findIncluded(
  included: readonly AnyResource[] | undefined,
  identifier: ResourceIdentifier | undefined,
): AnyResource | undefined {
  if (!identifier || !included) return undefined;
  return included.find((resource) => resource.id === identifier.id && resource.type === identifier.type);
}

/** Workspaces (notes §7): only the members the editor uses are typed; the rest pass through. */
import { z } from 'zod';
import { documentSchema, listDocumentSchema, resourceSchema } from './jsonapi';

export const workspaceAttributesSchema = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  locked: z.boolean().nullish(),
  'locked-reason': z.string().nullish(),
  'auto-apply': z.boolean().nullish(),
  'execution-mode': z.string().nullish(),
  'terraform-version': z.string().nullish(),
  'working-directory': z.string().nullish(),
  'created-at': z.string().nullish(),
  'updated-at': z.string().nullish(),
  permissions: z.record(z.string(), z.unknown()).nullish(),
  actions: z.record(z.string(), z.unknown()).nullish(),
});

export const workspaceSchema = resourceSchema(workspaceAttributesSchema);
export type Workspace = z.infer<typeof workspaceSchema>;
export const workspaceDocumentSchema = documentSchema(workspaceSchema);
export const workspaceListDocumentSchema = listDocumentSchema(workspaceSchema);

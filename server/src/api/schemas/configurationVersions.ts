/** Configuration versions (notes §6). `upload-url` is present only in the create response. */
import { z } from 'zod';
import { documentSchema, resourceSchema } from './jsonapi';

export const configurationVersionAttributesSchema = z.looseObject({
  status: z.string(),
  source: z.string().nullish(),
  speculative: z.boolean().nullish(),
  provisional: z.boolean().nullish(),
  'auto-queue-runs': z.boolean().nullish(),
  error: z.string().nullish(),
  'error-message': z.string().nullish(),
  'status-timestamps': z.record(z.string(), z.string().nullable()).nullish(),
  'upload-url': z.string().nullish(),
});
export const configurationVersionSchema = resourceSchema(configurationVersionAttributesSchema);
export type ConfigurationVersion = z.infer<typeof configurationVersionSchema>;
export const configurationVersionDocumentSchema = documentSchema(configurationVersionSchema);

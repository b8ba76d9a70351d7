/** Plans, applies and cost estimates (notes §5): a run's phases, each with its own status and log. */
import { z } from 'zod';
import { documentSchema, listDocumentSchema, resourceSchema } from './jsonapi';

const count = z.number().nullish();

export const phaseAttributesSchema = z.looseObject({
  status: z.string(),
  'status-timestamps': z.record(z.string(), z.string().nullable()).nullish(),
  'has-changes': z.boolean().nullish(),
  'resource-additions': count,
  'resource-changes': count,
  'resource-destructions': count,
  'resource-imports': count,
  /** Pre-signed: fetched without the API token. */
  'log-read-url': z.string().nullish(),
});
export const planSchema = resourceSchema(phaseAttributesSchema);
export type Plan = z.infer<typeof planSchema>;
export const applySchema = resourceSchema(phaseAttributesSchema);
export type Apply = z.infer<typeof applySchema>;
export const planDocumentSchema = documentSchema(planSchema);
export const applyDocumentSchema = documentSchema(applySchema);

/** Monthly costs are decimal strings (e.g. "25.488"), kept as strings to lose no precision. */
export const costEstimateAttributesSchema = z.looseObject({
  status: z.string(),
  'status-timestamps': z.record(z.string(), z.string().nullable()).nullish(),
  'error-message': z.string().nullish(),
  'prior-monthly-cost': z.string().nullish(),
  'proposed-monthly-cost': z.string().nullish(),
  'delta-monthly-cost': z.string().nullish(),
  'resources-count': count,
  'matched-resources-count': count,
  'unmatched-resources-count': count,
});
export const costEstimateSchema = resourceSchema(costEstimateAttributesSchema);
export type CostEstimate = z.infer<typeof costEstimateSchema>;
export const costEstimateDocumentSchema = documentSchema(costEstimateSchema);

/** A policy check (notes: `result` counts passed and failed policies by enforcement level). */
export const policyCheckSchema = resourceSchema(
  z.looseObject({
    status: z.string(),
    result: z
      .looseObject({
        passed: z.number().nullish(),
        'soft-failed': z.number().nullish(),
        'hard-failed': z.number().nullish(),
        'advisory-failed': z.number().nullish(),
      })
      .nullish(),
  }),
);
export type PolicyCheck = z.infer<typeof policyCheckSchema>;
export const policyCheckListDocumentSchema = listDocumentSchema(policyCheckSchema);

/**
 * Terraform's JSON plan format (`terraform show -json`, what `GET /plans/:id/json-output` redirects to), reduced to
 * what the plan overlay reads. Every object is loose: Terraform adds fields across versions and they must pass.
 * Values (`before`, `after`) are any JSON; the sensitivity and unknown markers mirror their shape with `true`
 * leaves, or are a single boolean for the whole value.
 */
import { z } from 'zod';

/** `true`/`false` for the whole value, or an object/array mirroring it. */
const markerSchema: z.ZodType<unknown> = z.union([z.boolean(), z.record(z.string(), z.unknown()), z.array(z.unknown())]);

export const planChangeSchema = z.looseObject({
  actions: z.array(z.string()).min(1, 'a change needs at least one action'),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
  after_unknown: markerSchema.nullish(),
  before_sensitive: markerSchema.nullish(),
  after_sensitive: markerSchema.nullish(),
  replace_paths: z.array(z.unknown()).nullish(),
});

export const resourceChangeSchema = z.looseObject({
  address: z.string().min(1),
  previous_address: z.string().nullish(),
  module_address: z.string().nullish(),
  mode: z.string().nullish(),
  type: z.string().nullish(),
  name: z.string().nullish(),
  /** A number (count) or a string (for_each key). */
  index: z.union([z.number(), z.string()]).nullish(),
  change: planChangeSchema,
  /** `replace_because_tainted`, `replace_by_request`, `replace_because_cannot_update`, `replace_by_triggers`… */
  action_reason: z.string().nullish(),
});

export const terraformPlanSchema = z.looseObject({
  format_version: z.string().nullish(),
  terraform_version: z.string().nullish(),
  resource_changes: z.array(resourceChangeSchema).nullish(),
  resource_drift: z.array(resourceChangeSchema).nullish(),
  output_changes: z.record(z.string(), planChangeSchema).nullish(),
});

export type TerraformPlan = z.infer<typeof terraformPlanSchema>;
export type ResourceChange = z.infer<typeof resourceChangeSchema>;
export type PlanChange = z.infer<typeof planChangeSchema>;

/** Runs (spec §2.3, notes §4.3). `status` is any string: the service adds states, and an unknown one must pass through. */
import { z } from 'zod';
import { documentSchema, listDocumentSchema, resourceSchema } from './jsonapi';

const flag = z.boolean().nullish();
const time = z.string().nullish();

export const runActionsSchema = z.looseObject({
  'is-cancelable': flag,
  'is-confirmable': flag,
  'is-discardable': flag,
  'is-force-cancelable': flag,
});

export const runPermissionsSchema = z.looseObject({
  'can-apply': flag,
  'can-cancel': flag,
  'can-comment': flag,
  'can-discard': flag,
  'can-force-execute': flag,
  'can-force-cancel': flag,
  'can-override-policy-check': flag,
});

export const runVariableSchema = z.looseObject({ key: z.string(), value: z.string() });

export const runAttributesSchema = z.looseObject({
  status: z.string(),
  'status-timestamps': z.record(z.string(), z.string().nullable()).nullish(),
  actions: runActionsSchema.nullish(),
  permissions: runPermissionsSchema.nullish(),
  /** The spec names it at the top of the attributes; the real service has it inside `actions`. */
  'is-force-cancelable': flag,
  /** Real spelling; the spec's prose spells it `force_cancel_available_at`, accepted below too. */
  'force-cancel-available-at': time,
  force_cancel_available_at: time,
  'has-changes': flag,
  'is-destroy': flag,
  'plan-only': flag,
  refresh: flag,
  'refresh-only': flag,
  'save-plan': flag,
  'auto-apply': flag,
  'allow-empty-apply': flag,
  'allow-config-generation': flag,
  'debugging-mode': flag,
  message: z.string().nullish(),
  source: z.string().nullish(),
  'trigger-reason': z.string().nullish(),
  'created-at': time,
  'updated-at': time,
  'canceled-at': time,
  'target-addrs': z.array(z.string()).nullish(),
  'replace-addrs': z.array(z.string()).nullish(),
  variables: z.array(runVariableSchema).nullish(),
  'engine-version': z.string().nullish(),
  'terraform-version': z.string().nullish(),
  'position-in-queue': z.number().nullish(),
});

export const runSchema = resourceSchema(runAttributesSchema);
export type Run = z.infer<typeof runSchema>;
export const runDocumentSchema = documentSchema(runSchema);
export const runListDocumentSchema = listDocumentSchema(runSchema);

/** When force-cancel becomes possible, whichever spelling the service used. */
export function forceCancelAvailableAt(run: Run): string | undefined {
  return run.attributes['force-cancel-available-at'] ?? run.attributes.force_cancel_available_at ?? undefined;
}

/** Whether a force-cancel may be done now, wherever the service put the flag. */
export function isForceCancelable(run: Run): boolean {
  return Boolean(run.attributes['is-force-cancelable'] ?? run.attributes.actions?.['is-force-cancelable']);
}

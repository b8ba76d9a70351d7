/** Subscriptions with their feature set (spec §2.1-2.2) and the organization token (spec §2.6, notes §9). */
import { z } from 'zod';
import { documentSchema, listDocumentSchema, resourceSchema } from './jsonapi';

const limit = z.number().nullish();
const flag = z.boolean().nullish();

export const subscriptionAttributesSchema = z.looseObject({
  'end-at': z.string().nullish(),
  'is-active': flag,
  'start-at': z.string().nullish(),
  'runs-ceiling': limit,
  'agents-ceiling': limit,
  'contract-start-at': z.string().nullish(),
  'contract-user-limit': limit,
  'contract-apply-limit': limit,
  'run-task-limit': limit,
  'run-task-workspace-limit': limit,
  'run-task-mandatory-enforcement-limit': limit,
  'policy-set-limit': limit,
  'policy-limit': limit,
  'policy-mandatory-enforcement-limit': limit,
  'versioned-policy-set-limit': limit,
  'is-public-free-tier': flag,
  'is-self-serve-trial': flag,
});

export const featureSetAttributesSchema = z.looseObject({
  'audit-logging': flag,
  'comparison-description': z.string().nullish(),
  'cost-estimation': flag,
  cost: z.number().nullish(),
  description: z.string().nullish(),
  'global-run-tasks': flag,
  identifier: z.string().nullish(),
  'is-current': flag,
  'is-free-tier': flag,
  'module-tests-generation': flag,
  name: z.string().nullish(),
  plan: z.unknown().optional(),
  'policy-enforcement': flag,
  'policy-limit': limit,
  'policy-mandatory-enforcement-limit': limit,
  'policy-set-limit': limit,
  'private-networking': flag,
  'private-policy-agents': flag,
  'private-vcs': flag,
  'run-task-limit': limit,
  'run-task-mandatory-enforcement-limit': limit,
  'run-task-workspace-limit': limit,
  'run-tasks': flag,
  'self-serve-billing': flag,
  'policy-engine': flag,
  sso: flag,
  teams: flag,
  'user-limit': limit,
  'versioned-policy-set-limit': limit,
});

export const subscriptionSchema = resourceSchema(subscriptionAttributesSchema);
export type Subscription = z.infer<typeof subscriptionSchema>;
export const featureSetSchema = resourceSchema(featureSetAttributesSchema);
export type FeatureSet = z.infer<typeof featureSetSchema>;
export const subscriptionDocumentSchema = documentSchema(subscriptionSchema);

export const organizationTokenAttributesSchema = z.looseObject({
  /** The secret: present only in the generation response. */
  token: z.string().nullish(),
  'expired-at': z.string().nullish(),
  'created-at': z.string().nullish(),
  'last-used-at': z.string().nullish(),
  description: z.string().nullish(),
});
export const organizationTokenSchema = resourceSchema(organizationTokenAttributesSchema);
export type OrganizationToken = z.infer<typeof organizationTokenSchema>;
export const organizationTokenDocumentSchema = documentSchema(organizationTokenSchema);

/** An organization (notes §7): its id is its name; `name` is repeated in the attributes. */
export const organizationSchema = resourceSchema(
  z.looseObject({ name: z.string().optional(), permissions: z.looseObject({ 'can-update-api-token': z.boolean().nullish() }).nullish() }),
);
export const organizationDocumentSchema = documentSchema(organizationSchema);
export const organizationListDocumentSchema = listDocumentSchema(organizationSchema);
export type Organization = z.infer<typeof organizationSchema>;

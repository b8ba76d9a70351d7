// The plan's JSON output (notes §5.1): `GET /plans/:id/json-output` answers 204 until the plan is finished, then
// 307 to a short-lived blob URL serving a `terraform show -json`-shaped document built from the plan's changes.
// Its resource changes carry the attributes before and after where the plan followed the configuration.
import { compareAddresses, parseAddress, impliedProvider } from './address';
import { generatedId } from './changeValues';
import type { PlannedChange, PlannedOutput, RunRecord, UnchangedInstance } from './model';
import { plannedValues, priorState, type ResourceChangeJson } from './planValues';

export const planJsonPathPrefix = '/_archivist/v1/plan-json/';

const actionsOf: Record<PlannedChange['action'], string[]> = {
  create: ['create'],
  update: ['update'],
  delete: ['delete'],
  replace: ['delete', 'create'],
  forget: ['forget'],
};

interface Options {
  /** Sensitive values left out (json-output-redacted): the markers still say which ones they were. */
  redact: boolean;
}

export function planJsonDocument(run: RunRecord, { redact }: Options = { redact: false }): Record<string, unknown> {
  // Sorted by address as Terraform sorts them (internal/command/jsonplan MarshalResourceChanges): the CLI draws the
  // plan in this order, moves among the changes.
  const resourceChanges = [...run.changes.map((change) => resourceChange(run, change, redact)), ...(run.unchanged ?? []).map((instance) => unchangedResource(instance, redact))]
    .sort((a, b) => compareAddresses(a.address as string, b.address as string));
  const prior = priorState(run, resourceChanges as unknown as ResourceChangeJson[]);
  // A refresh-only plan's moves, kept as drift though they are no-ops (internal/command/jsonplan/plan.go keeps no-op
  // drift in refresh-only mode only; resource_drift is left out when empty).
  const drift = (run.drifted ?? []).map((instance) => unchangedResource(instance, redact)).sort((a, b) => compareAddresses(a.address as string, b.address as string));
  // Terraform's field order: the CLI does not care, a reader diffing against `terraform show -json` might.
  return {
    format_version: '1.2',
    terraform_version: run.engineVersion,
    planned_values: plannedValues(run, resourceChanges as unknown as ResourceChangeJson[]),
    ...(drift.length > 0 ? { resource_drift: drift } : {}),
    resource_changes: resourceChanges,
    output_changes: Object.fromEntries((run.isDestroy ? [] : (run.outputs ?? [])).map((output) => [output.name, outputChange(output, redact)])),
    ...(prior ? { prior_state: prior } : {}),
  };
}

function resourceChange(run: RunRecord, change: PlannedChange, redact: boolean): Record<string, unknown> {
  // Seeded outcomes do not simulate attributes: their instances show only an id.
  const before = change.before !== undefined ? change.before : change.action === 'create' ? null : { id: generatedId(change.address) };
  const after = change.after !== undefined ? change.after : change.action === 'delete' ? null : change.action === 'update' ? { id: generatedId(change.address) } : {};
  const unknown = change.afterUnknown ?? (after && !('id' in after) ? ['id'] : []);
  const sensitive = change.sensitive ?? [];
  return {
    ...addressFields(change.address, change.previousAddress),
    change: {
      // create_before_destroy turns a replacement round: Terraform's CreateThenDelete, which the CLI renders as
      // "+/- create replacement and then destroy".
      actions: change.createBeforeDestroy ? ['create', 'delete'] : actionsOf[change.action],
      before: before && redact ? redacted(before, sensitive) : before,
      after: after && redact ? redacted(after, sensitive) : after,
      after_unknown: after ? markers(unknown) : false,
      before_sensitive: before ? markers(sensitive.filter((name) => name in before)) : false,
      after_sensitive: after ? markers(sensitive) : false,
    },
    ...(change.action === 'replace' ? { action_reason: run.replaceAddrs?.includes(change.address) ? 'replace_by_request' : 'replace_because_cannot_update' } : {}),
    ...(change.action === 'delete' && change.actionReason ? { action_reason: change.actionReason } : {}),
  };
}

/** An instance the plan leaves alone: `no-op`, before and after both the state's. */
function unchangedResource(instance: UnchangedInstance, redact: boolean): Record<string, unknown> {
  const values = redact ? redacted(instance.attributes, instance.sensitive) : instance.attributes;
  return {
    ...addressFields(instance.address, instance.previousAddress),
    change: { actions: ['no-op'], before: values, after: values, after_unknown: {}, before_sensitive: markers(instance.sensitive), after_sensitive: markers(instance.sensitive) },
  };
}

/**
 * How a resource change names its instance: address, module, mode, type, name, index, provider; and the address a
 * `moved` block renamed it from, which the CLI draws as "# a has moved to b" (or "(moved from a)" over a change).
 */
function addressFields(address: string, previousAddress?: string): Record<string, unknown> {
  const parsed = parseAddress(address);
  const type = parsed?.type ?? address;
  return {
    address,
    ...(previousAddress ? { previous_address: previousAddress } : {}),
    ...(parsed?.module ? { module_address: parsed.module } : {}),
    mode: parsed?.mode ?? 'managed',
    type,
    name: parsed?.name ?? address,
    ...(parsed?.key !== undefined ? { index: parsed.key } : {}),
    provider_name: providerName(type),
  };
}

function outputChange(output: PlannedOutput, redact: boolean): Record<string, unknown> {
  const known = 'after' in output;
  const same = known && JSON.stringify(output.before) === JSON.stringify(output.after);
  const hide = redact && output.sensitive;
  return {
    actions: [output.action],
    before: hide && output.before !== null ? hidden : output.before,
    after: !known || output.action === 'delete' ? null : hide ? hiddenAfter(output.before, same) : output.after,
    after_unknown: !known,
    // Terraform's plan has one sensitive flag per output change, so its JSON writes it on both sides, a create too.
    before_sensitive: output.sensitive,
    after_sensitive: output.sensitive,
  };
}

/**
 * The CLI's renderer draws an output's change from its values, not its actions: a hidden value stays non-null (a
 * null after reads as no change, and a new sensitive output would be left out), and a changed one differs from the
 * one before (or `~ s = (sensitive value)` would be left out).
 */
const hidden = '(sensitive value)';

function hiddenAfter(before: unknown, same: boolean): string {
  return before === null || same ? hidden : '(sensitive value, changed)';
}

/**
 * What `GET /plans/:id/json-output-redacted` serves: the plan in the shape the CLI's renderer reads (plan and provider
 * format versions, a schema for every resource type shown), with sensitive values redacted.
 */
export function redactedPlanJsonDocument(run: RunRecord): Record<string, unknown> {
  const plan = planJsonDocument(run, { redact: true });
  type Shown = Array<{ type: string; provider_name: string; change: Record<'before' | 'after' | 'after_unknown' | 'after_sensitive', Record<string, unknown> | null | false> }>;
  const changes = plan.resource_changes as Shown;
  const drift = (plan.resource_drift ?? []) as Shown;
  // The renderer draws an attribute only when the schema names it: the emulated resources' attributes are whatever
  // the configuration wrote ("dynamic"), with a computed string id.
  const schemas = new Map<string, Map<string, Set<string>>>();
  for (const { type, provider_name: provider, change } of [...changes, ...drift]) {
    const byType = schemas.get(provider) ?? new Map<string, Set<string>>();
    schemas.set(provider, byType);
    const names = byType.get(type) ?? new Set<string>(['id']);
    byType.set(type, names);
    for (const side of [change.before, change.after, change.after_unknown, change.after_sensitive]) for (const name of Object.keys(side || {})) names.add(name);
  }
  const providerSchemas = Object.fromEntries(
    [...schemas].map(([provider, byType]) => [
      provider,
      {
        provider: { version: 0, block: {} },
        resource_schemas: Object.fromEntries(
          [...byType].map(([type, names]) => [
            type,
            { version: 0, block: { attributes: Object.fromEntries([...names].map((name) => [name, name === 'id' ? { type: 'string', computed: true } : { type: 'dynamic', optional: true }])) } },
          ]),
        ),
        data_source_schemas: {},
      },
    ]),
  );
  return {
    plan_format_version: '1.2',
    provider_format_version: '1.0',
    terraform_version: plan.terraform_version,
    resource_changes: changes,
    resource_drift: drift,
    output_changes: plan.output_changes,
    relevant_attributes: [],
    provider_schemas: providerSchemas,
  };
}

function providerName(type: string): string {
  const provider = impliedProvider(type);
  return provider === 'terraform' ? 'terraform.io/builtin/terraform' : `registry.terraform.io/hashicorp/${provider}`;
}

function markers(names: readonly string[]): Record<string, true> {
  return Object.fromEntries(names.map((name) => [name, true]));
}

/**
 * Sensitive values replaced by a marker: the key must stay non-null, or the renderer drops the attribute instead of
 * showing "(sensitive value)" for it.
 */
function redacted(values: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, names.includes(name) ? '(sensitive value)' : value]));
}

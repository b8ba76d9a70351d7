// The subscription and feature set as the Organization view and the Show Subscription document tell them. No
// `vscode` import: unit-tested with node:test. Limits and quotas are the spec's §8 list; null means unlimited.
import type { OrganizationTokenStatus, SubscriptionResult } from '../../../server/src/protocol';

export interface Row {
  label: string;
  description?: string;
  /** A codicon id. */
  icon?: string;
}

/** The spec's quotas (§8): where each lives, and how to say it. */
const limits: Array<{ key: string; label: string; in: 'subscription' | 'featureSet' }> = [
  { key: 'user-limit', label: 'Users', in: 'featureSet' },
  { key: 'runs-ceiling', label: 'Concurrent runs', in: 'subscription' },
  { key: 'agents-ceiling', label: 'Agents', in: 'subscription' },
  { key: 'contract-user-limit', label: 'Contract users', in: 'subscription' },
  { key: 'contract-apply-limit', label: 'Contract applies', in: 'subscription' },
  { key: 'run-task-limit', label: 'Run tasks', in: 'subscription' },
  { key: 'run-task-workspace-limit', label: 'Run tasks per workspace', in: 'subscription' },
  { key: 'run-task-mandatory-enforcement-limit', label: 'Mandatory run tasks', in: 'subscription' },
  { key: 'policy-set-limit', label: 'Policy sets', in: 'subscription' },
  { key: 'policy-limit', label: 'Policies', in: 'subscription' },
  { key: 'policy-mandatory-enforcement-limit', label: 'Mandatory policies', in: 'subscription' },
  { key: 'versioned-policy-set-limit', label: 'Versioned policy sets', in: 'subscription' },
];

type Available = Extract<SubscriptionResult, { available: true }>;

export function planName(result: SubscriptionResult): string | undefined {
  return result.available ? (result.featureSet?.name ?? result.featureSet?.identifier) : undefined;
}

/** Plan, active or not, start and end. */
export function subscriptionRows(result: Available): Row[] {
  const s = result.subscription;
  return [
    { label: 'Plan', description: planName(result) ?? 'unknown', icon: 'credit-card' },
    { label: 'Status', description: s.isActive === undefined ? 'unknown' : s.isActive ? 'active' : 'inactive', icon: s.isActive === false ? 'circle-slash' : 'pass' },
    { label: 'Started', description: day(s.startAt) ?? 'unknown', icon: 'calendar' },
    { label: 'Ends', description: day(s.endAt) ?? 'no end date', icon: 'calendar' },
  ];
}

/** Each limit or quota: a number, "unlimited" (null), or left out when the service does not say. */
export function limitRows(result: Available): Row[] {
  const rows: Row[] = [];
  for (const limit of limits) {
    const source = limit.in === 'featureSet' ? result.featureSet?.attributes : result.subscription.attributes;
    // null is a value here ("unlimited"); only a member the service left out falls back to the feature set's.
    const value = source && limit.key in source ? source[limit.key] : limit.in === 'subscription' ? result.featureSet?.attributes[limit.key] : undefined;
    if (value === undefined) continue;
    rows.push({ label: limit.label, description: value === null ? 'unlimited' : String(value), icon: 'dashboard' });
  }
  return rows;
}

/** Each feature switch of the feature set, on or off, by name. */
export function featureRows(result: Available): Row[] {
  return Object.entries(result.featureSet?.flags ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, on]) => ({ label: humanize(name), description: on ? 'on' : 'off', icon: on ? 'check' : 'close' }));
}

export function tokenRows(status: OrganizationTokenStatus): Row[] {
  if (!status.exists) return [{ label: 'No organization token', description: status.reason, icon: 'key' }];
  return [
    { label: 'Token exists', description: status.id, icon: 'key' },
    { label: 'Created', description: day(status.createdAt) ?? 'unknown', icon: 'calendar' },
    { label: 'Expires', description: day(status.expiredAt) ?? 'never (as the service says)', icon: 'watch' },
    ...(status.lastUsedAt ? [{ label: 'Last used', description: day(status.lastUsedAt), icon: 'history' }] : []),
  ];
}

/** The Show Subscription document. */
export function subscriptionMarkdown(organization: string, hostname: string, result: SubscriptionResult): string {
  if (!result.available) return `# Subscription of ${organization}\n\nHost: ${hostname}\n\n${result.reason}\n`;
  const table = (rows: Row[]) => ['| | |', '|---|---|', ...rows.map((row) => `| ${row.label} | ${row.description ?? ''} |`)].join('\n');
  return [
    `# Subscription of ${organization}`,
    `Host: ${hostname} · subscription \`${result.subscription.id}\``,
    table(subscriptionRows(result)),
    '## Limits and quotas',
    limitRows(result).length ? table(limitRows(result)) : '_The service states none._',
    `## Features${result.featureSet ? ` of ${planName(result) ?? result.featureSet.id}` : ''}`,
    featureRows(result).length ? table(featureRows(result)) : '_The service did not include the feature set._',
  ].join('\n\n') + '\n';
}

/** `change-requests` → "Change requests". */
export function humanize(name: string): string {
  const words = name.replace(/[-_]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function day(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? iso : new Date(time).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

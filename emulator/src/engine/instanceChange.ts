// Whether a declared resource instance that the state already holds changes, as Terraform decides it: the
// configuration's evaluated arguments against the state's attributes, value by value. `lower("X")` where the state
// says "x" is no change; an argument the configuration no longer sets is one (it becomes null). An argument whose
// value is known only after apply is compared by fingerprint with what the apply that wrote it recorded. An argument
// the resource's `lifecycle { ignore_changes }` lists is not compared at all: the state's value stands.
import type { DeclaredInstance } from './configuration';
import { ignoresChanges } from './lifecycle';
import { providerSetAttributes, replacingArguments } from './resourceSchema';

/**
 * What the apply that last wrote an instance recorded of an argument the emulator could not evaluate: its
 * fingerprint then (configuration.ts) and the value it wrote to the state for it.
 */
export interface UnknownArgumentRecord {
  fingerprint: string;
  written: unknown;
}

/** Address → argument → record (runs/unknownArguments.ts keeps them per workspace). */
export type UnknownArgumentRecords = ReadonlyMap<string, Readonly<Record<string, UnknownArgumentRecord>>>;

export function instanceChange(instance: DeclaredInstance, stateAttributes: Readonly<Record<string, unknown>>, records: UnknownArgumentRecords): 'replace' | 'update' | undefined {
  const changed = changedArguments(instance, stateAttributes, records.get(instance.address) ?? {});
  if (changed.length === 0) return undefined;
  const replacing = replacingArguments(instance.type);
  return changed.some((argument) => replacing.includes(argument)) ? 'replace' : 'update';
}

/** The names of the arguments whose planned value differs from the state's. */
export function changedArguments(instance: DeclaredInstance, stateAttributes: Readonly<Record<string, unknown>>, recorded: Readonly<Record<string, UnknownArgumentRecord>>): string[] {
  const providerSet = new Set(providerSetAttributes(instance.type));
  const names = new Set([...Object.keys(instance.values), ...instance.unknown, ...Object.keys(stateAttributes)].filter((name) => !providerSet.has(name) && !ignoresChanges(instance.lifecycle, name)));
  return [...names].filter((name) => {
    if (!instance.unknown.includes(name)) return !sameValue(instance.values[name], stateAttributes[name]);
    // Terraform would plan an update for a value truly unknown; most of the emulator's unknowns are values Terraform
    // knows but the emulator cannot compute, so the same fingerprint over the value the apply wrote means unchanged.
    const record = recorded[name];
    return !record || record.fingerprint !== instance.unknownFingerprints[name] || !sameValue(record.written, stateAttributes[name]);
  });
}

/** Equal values, whatever the order of an object's keys; null and absent are the same (an unset argument is null). */
function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

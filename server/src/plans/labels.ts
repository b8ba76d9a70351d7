// What a block's code lens says about its instances: Terraform's own symbols (`+`, `~`, `-/+`, `-`, `<=`) so the
// words match the plan log. Pure.
import type { PlanChangeAction, PlanInstanceChange } from '../protocol';

/** Stronger first: the block's action is its strongest instance's. */
const strength: PlanChangeAction[] = ['replace', 'delete', 'create', 'update', 'read', 'no-op'];

export function strongestAction(instances: readonly PlanInstanceChange[]): PlanChangeAction {
  let best: PlanChangeAction = 'no-op';
  for (const instance of instances) if (strength.indexOf(instance.action) < strength.indexOf(best)) best = instance.action;
  return best;
}

/** One instance's verdict: `+ create`, `~ update in place (3)`, `-/+ replace (requested)`, `- destroy`, `<= read`, `no changes`. */
export function actionLabel(change: Pick<PlanInstanceChange, 'action' | 'reason' | 'attributes'>): string {
  switch (change.action) {
    case 'create':
      return '+ create';
    case 'update':
      return `~ update in place (${change.attributes.length})`;
    case 'replace':
      return `-/+ replace${change.reason ? ` (${change.reason})` : ''}`;
    case 'delete':
      return '- destroy';
    case 'read':
      return '<= read';
    default:
      return 'no changes';
  }
}

/**
 * A block's label. `grouped`: the block has count / for_each instances. All instances doing the same thing say it
 * once with their number (`+ create (2 instances)`); a mix, or some unchanged, says how many change (`3 of 5
 * instances change`). A plan lists unchanged instances as no-op only in some versions, so "of N" counts what it lists.
 */
export function blockLabel(instances: readonly PlanInstanceChange[], grouped: boolean, drifted = false): string {
  const driftNote = drifted ? ' · drifted outside Terraform' : '';
  const changing = instances.filter((instance) => instance.action !== 'no-op');
  if (changing.length === 0) return drifted ? 'drifted outside Terraform' : 'no changes';
  if (!grouped) return actionLabel(changing[0]!) + driftNote;
  const verbs = new Set(changing.map((instance) => (instance.action === 'update' ? 'update' : actionLabel(instance))));
  if (changing.length === instances.length && verbs.size === 1) {
    const first = changing[0]!;
    const verb = first.action === 'update' ? '~ update in place' : actionLabel(first);
    return `${verb} (${changing.length} instance${changing.length === 1 ? '' : 's'})${driftNote}`;
  }
  return `${changing.length} of ${instances.length} instances change${driftNote}`;
}

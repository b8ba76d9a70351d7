// What a simulated plan changes. The counts come from the workspace's plan outcome (set by the seed or a test);
// the resource addresses come from the configuration version's own `resource` blocks when it has any, so the
// plan log names resources the user actually wrote. Destroy plans destroy what the workspace's state holds.
import type { TerraformParser } from '../../../server/src/model';
import { extractTerraformFile } from '../../../server/src/model';
import type { Workspace } from '../store/model';
import type { PlannedChange, RunRecord } from './model';

/** Managed resource addresses declared in `.tf` files, e.g. `aws_instance.web`, in file order (none without a parser). */
export function declaredResourceAddresses(parser: TerraformParser | undefined, files: Map<string, Buffer> | undefined): string[] {
  if (!parser || !files) return [];
  const addresses: string[] = [];
  for (const [path, content] of [...files.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (!path.endsWith('.tf')) continue;
    const tree = parser.parse(content.toString('utf8'));
    try {
      for (const target of extractTerraformFile(tree, path).addresses) if (target.kind === 'resource') addresses.push(target.address);
    } finally {
      tree.delete();
    }
  }
  return addresses;
}

const fallbackAddresses = [
  'aws_instance.app',
  'aws_security_group.app',
  'aws_s3_bucket.logs',
  'aws_iam_role.app',
  'aws_cloudwatch_log_group.app',
  'aws_lb.front',
  'aws_db_instance.main',
];

export interface ChangeInputs {
  run: Pick<RunRecord, 'isDestroy' | 'refreshOnly' | 'targetAddrs' | 'replaceAddrs'>;
  outcome: Workspace['planOutcome'];
  declared: string[];
  /** Addresses the workspace's current state holds. */
  managed: string[];
}

export function plannedChanges({ run, outcome, declared, managed }: ChangeInputs): PlannedChange[] {
  let changes: PlannedChange[];
  if (run.refreshOnly) {
    changes = [];
  } else if (run.isDestroy) {
    changes = managed.map((address) => ({ address, action: 'delete' as const }));
  } else if (!outcome.hasChanges) {
    changes = [];
  } else {
    const names = uniqueAddresses(declared.length > 0 ? declared : fallbackAddresses, managed);
    // Only what is already in state can be updated or destroyed: a first plan on an empty workspace only creates.
    const updates = Math.min(outcome.resourceChanges, managed.length);
    const destructions = Math.min(outcome.resourceDestructions, managed.length - updates);
    changes = [
      ...take(names.fresh, outcome.resourceAdditions, 'create'),
      ...take(managed, updates, 'update'),
      ...take(managed.slice(updates), destructions, 'delete'),
    ];
  }
  for (const address of run.replaceAddrs ?? []) {
    changes = changes.filter((change) => change.address !== address);
    changes.push({ address, action: 'replace' });
  }
  const targets = run.targetAddrs;
  if (targets && targets.length > 0) changes = changes.filter((change) => targets.some((t) => isTargeted(change.address, t)));
  return changes;
}

export function countChanges(changes: PlannedChange[]): { additions: number; changes: number; destructions: number } {
  const count = (...actions: PlannedChange['action'][]) => changes.filter((c) => actions.includes(c.action)).length;
  return { additions: count('create', 'replace'), changes: count('update'), destructions: count('delete', 'replace') };
}

export function isTargeted(address: string, target: string): boolean {
  return address === target || address.startsWith(`${target}.`) || address.startsWith(`${target}[`);
}

/** Candidate names not yet in state (to create), counted (`name[1]`…) when the configuration names too few. */
function uniqueAddresses(candidates: string[], managed: string[]): { fresh: string[] } {
  const inState = new Set(managed);
  const fresh: string[] = [];
  // Counted resources (`name[0]`, `name[1]`…) when the plan creates more than the configuration names.
  for (let round = 0; fresh.length < 64 && round < 16; round++) {
    for (const base of candidates) {
      const address = round === 0 ? base : `${base}[${round}]`;
      if (!inState.has(address)) fresh.push(address);
    }
  }
  return { fresh };
}

function take(names: string[], count: number, action: PlannedChange['action']): PlannedChange[] {
  const result: PlannedChange[] = [];
  for (let i = 0; i < count; i++) {
    const base = names[i % Math.max(1, names.length)] ?? `null_resource.item`;
    const address = i < names.length ? base : `${base}[${Math.floor(i / names.length)}]`;
    result.push({ address, action });
  }
  return result;
}

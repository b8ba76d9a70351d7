// The line the CLI writes under "# x will be destroyed" saying why, for the plain-text plan log (a workspace without
// structured run output): the wording of Terraform's renderer (internal/command/jsonformat/plan.go
// resourceChangeComment), which draws the same line from the plan JSON's action_reason otherwise.
import { parseAddress } from './address';
import type { PlannedChange } from './model';

export function deleteReasonLine(change: PlannedChange): string | undefined {
  if (change.action !== 'delete' || !change.actionReason) return undefined;
  const parsed = parseAddress(change.address);
  const key = parsed?.key === undefined ? '' : JSON.stringify(parsed.key);
  switch (change.actionReason) {
    case 'delete_because_no_resource_config':
      return `  # (because ${parsed?.type}.${parsed?.name} is not in configuration)`;
    case 'delete_because_no_move_target':
      return `  # (because ${change.previousAddress} was moved to ${change.address}, which is not in configuration)`;
    case 'delete_because_no_module':
      return `  # (because ${parsed?.module} is not in configuration)`;
    case 'delete_because_wrong_repetition':
      return parsed?.key === undefined ? '  # (because resource uses count or for_each)' : typeof parsed.key === 'number' ? '  # (because resource does not use count)' : '  # (because resource does not use for_each)';
    case 'delete_because_count_index':
      return `  # (because index [${key}] is out of range for count)`;
    case 'delete_because_each_key':
      return `  # (because key [${key}] is not in for_each map)`;
  }
}

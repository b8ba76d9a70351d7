// Which runs deserve a notification, and with which buttons. Pure (no vscode import): unit-tested.
import type { RunSummary } from '../../../server/src/protocol';
import { runLabel } from '../runs/tree/runPresentation';

export type NotificationSetting = 'off' | 'mine' | 'all';

export interface RunNotification {
  severity: 'info' | 'error';
  message: string;
  /** Button titles, each mapped to the command it runs with the run node. */
  buttons: Array<{ title: string; command: string }>;
  /** Once per run and kind: the caller remembers it. */
  key: string;
}

/** Statuses in which a run waits for someone to confirm it (when its actions say it can be). */
const awaitingConfirmation = ['planned', 'cost_estimated', 'policy_checked', 'policy_override', 'planned_and_saved', 'post_plan_completed'];

export function runNotification(run: RunSummary, workspaceName: string, setting: NotificationSetting, mine: boolean): RunNotification | undefined {
  if (setting === 'off' || (setting === 'mine' && !mine)) return undefined;
  const label = `"${runLabel(run)}" in ${workspaceName}`;
  if (awaitingConfirmation.includes(run.status) && run.actions.isConfirmable) {
    const buttons = [{ title: 'Apply', command: 'hcpTerraform.applyRun' }];
    if (run.actions.isDiscardable) buttons.push({ title: 'Discard', command: 'hcpTerraform.discardRun' });
    buttons.push({ title: 'Show', command: 'hcpTerraform.showRunDetails' });
    return { severity: 'info', message: `HCP Terraform: run ${label} needs confirmation (${run.statusLabel.toLowerCase()}).`, buttons, key: `${run.id}/confirm` };
  }
  if (run.status === 'errored') {
    return { severity: 'error', message: `HCP Terraform: run ${label} errored.`, buttons: [{ title: 'Show Log', command: 'hcpTerraform.showRunLog' }], key: `${run.id}/errored` };
  }
  if (run.status === 'applied') {
    return { severity: 'info', message: `HCP Terraform: run ${label} applied.`, buttons: [{ title: 'Show', command: 'hcpTerraform.showRunDetails' }], key: `${run.id}/applied` };
  }
  if (run.status === 'planned_and_finished' && mine) {
    return { severity: 'info', message: `HCP Terraform: plan ${label} finished${run.hasChanges === false ? ': no changes' : ''}.`, buttons: [{ title: 'Show Log', command: 'hcpTerraform.showRunLog' }], key: `${run.id}/finished` };
  }
  return undefined;
}

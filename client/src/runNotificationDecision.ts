// Whether a run's change is worth a notification, and which one: decided without vscode so it is unit-tested.
// Three moments matter to someone who queued a run: it needs their confirmation, it errored, it applied.
import type { RunSummary } from '../../server/src/protocol';
import { needsConfirmation } from './statusBarState';

export type NotificationSetting = 'off' | 'mine' | 'all';
export type RunMoment = 'needs-confirmation' | 'errored' | 'applied';
export type RunNotificationButton = 'Apply' | 'Discard' | 'Show' | 'Show Log';

export interface RunNotification {
  /** runId + moment: never more than one notification per run and moment. */
  key: string;
  moment: RunMoment;
  severity: 'information' | 'error';
  message: string;
  buttons: RunNotificationButton[];
}

export interface NotificationContext {
  setting: NotificationSetting;
  /** Queued from this window. */
  mine: boolean;
  /** The run's workspace is linked to an open folder (what `all` covers besides this window's runs). */
  linked: boolean;
  workspaceName: string;
  alreadyNotified: ReadonlySet<string>;
  /**
   * When this window started watching (ms since epoch): a run of someone else that reached its state before is old
   * news the first report of a workspace would otherwise announce.
   */
  since?: number;
}

/** `hcpTerraform.notifications`, with anything unexpected read as the default `mine`. */
export function parseNotificationSetting(value: unknown): NotificationSetting {
  return value === 'off' || value === 'all' ? value : 'mine';
}

export function runMoment(run: RunSummary): RunMoment | undefined {
  if (needsConfirmation(run)) return 'needs-confirmation';
  if (run.status === 'errored') return 'errored';
  if (run.status === 'applied') return 'applied';
  return undefined;
}

export function decideRunNotification(run: RunSummary, context: NotificationContext): RunNotification | undefined {
  if (context.setting === 'off') return undefined;
  if (!context.mine && !(context.setting === 'all' && context.linked)) return undefined;
  const moment = runMoment(run);
  if (!moment) return undefined;
  const key = `${run.id}:${moment}`;
  if (context.alreadyNotified.has(key)) return undefined;
  if (!context.mine && context.since !== undefined && run.statusChangedAt && Date.parse(run.statusChangedAt) < context.since) return undefined;
  const title = run.message?.split('\n')[0]?.trim();
  const what = `HCP Terraform: ${context.workspaceName}: run ${title ? `"${title}"` : run.id}`;
  switch (moment) {
    case 'needs-confirmation': {
      const buttons: RunNotificationButton[] = [];
      if (run.permissions?.canApply !== false) buttons.push('Apply');
      if (run.actions.isDiscardable && run.permissions?.canDiscard !== false) buttons.push('Discard');
      buttons.push('Show');
      return { key, moment, severity: 'information', message: `${what} needs confirmation (${run.statusLabel}).`, buttons };
    }
    case 'errored':
      return { key, moment, severity: 'error', message: `${what} errored.`, buttons: ['Show Log'] };
    case 'applied':
      return { key, moment, severity: 'information', message: `${what} applied.`, buttons: ['Show'] };
  }
}

/** The command each button runs, with the run node as its argument. */
export const buttonCommands: Record<RunNotificationButton, string> = {
  Apply: 'hcpTerraform.applyRun',
  Discard: 'hcpTerraform.discardRun',
  Show: 'hcpTerraform.showRunDetails',
  'Show Log': 'hcpTerraform.showRunLog',
};

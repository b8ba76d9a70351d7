// Why a run has no plan to put on the code. `showPlanOnCode` on a run whose plan errored answered {folderUris: []}
// and said nothing, which reads as "no folder is linked"; it now fails with the reason, as commands report failures.
import type { Run } from '../api';
import { runStatusLabel } from '../api';
import { planFinished } from './planOverlays';

/** The sentence saying why `run` has no plan to show; undefined when its plan finished. */
export function whyNoPlanToShow(run: Run): string | undefined {
  if (planFinished(run)) return undefined;
  const status = run.attributes.status;
  const lead = `Run ${run.id} has no plan to show on the code`;
  switch (status) {
    case 'errored':
      return `${lead}: it errored before its plan finished. The run's plan log says why.`;
    case 'canceled':
    case 'force_canceled':
      return `${lead}: it was canceled before its plan finished.`;
    case 'discarded':
      return `${lead}: it was discarded before its plan finished.`;
    default:
      return `${lead} yet: its plan has not finished (${runStatusLabel(status).toLowerCase()}). Show it once the run has planned.`;
  }
}

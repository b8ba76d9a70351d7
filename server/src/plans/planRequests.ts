// The plan overlay's requests and command (declared in protocol.ts): the overlay a folder shows now, a run's changes
// with their blocks (the Runs view), and `showPlanOnCode`, which pins a run's plan on its workspace's folders.
import type { Connection } from 'vscode-languageserver';
import { relatedId } from '../api';
import type { CoreContext } from '../commands/context';
import { resolveTarget } from '../commands/context';
import { invalidParams, toResponseError } from '../commands/errors';
import { parseRequestParams } from '../commands/requestParams';
import type { ParsedArguments } from '../commands/arguments';
import { planOverlayRequest, planResourceChangesRequest } from '../protocol';
import type { ServerCommandResults } from '../protocol';
import { folderModel } from '../workspaces/folderRequests';
import { whyNoPlanToShow } from './planlessRuns';

export function registerPlanRequests(connection: Connection, context: CoreContext): void {
  connection.onRequest(planOverlayRequest, (params) =>
    guard(async () => {
      const model = folderModel(context, parseRequestParams('hcpTerraform/planOverlay', params).folderUri);
      return context.plans.overlayFor(model.folder) ?? null;
    }),
  );
  connection.onRequest(planResourceChangesRequest, (raw) =>
    guard(async () => {
      const params = parseRequestParams('hcpTerraform/planResourceChanges', raw);
      const target = resolveTarget(context, params);
      const { run } = await target.client.runs.get(params.runId);
      return { changes: await context.plans.changesOfRun(target.hostname, run) };
    }),
  );
}

/** `hcpTerraform.server.showPlanOnCode`: the run's plan replaces the latest one on the folders linked to its workspace. */
export async function showPlanOnCode(context: CoreContext, args: ParsedArguments<'showPlanOnCode'>): Promise<ServerCommandResults['showPlanOnCode']> {
  if (!context.plans.isEnabled) throw invalidParams('Plans on the code are turned off (hcpTerraform.planOverlay.enabled): turn the setting on first.');
  const target = resolveTarget(context, args);
  const { run } = await target.client.runs.get(args.runId);
  if (!relatedId(run, 'plan')) throw invalidParams(`Run ${args.runId} has no plan.`);
  const noPlan = whyNoPlanToShow(run);
  if (noPlan) throw invalidParams(noPlan);
  return { folderUris: await context.plans.pin(target.hostname, run) };
}

async function guard<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toResponseError(error);
  }
}

/**
 * Runs in known states, built by the test itself instead of read from the demo seed (whose runs may change):
 * a configuration that plans cleanly is uploaded to a workspace, then runs are created and the emulator's clock
 * advanced until they reach the wanted state. Meant for the `empty` seed (demo-app with no runs), where the
 * member may queue plans but not apply, and the reader may only read.
 */
import type { Run, ServiceClient } from '../../../server/src/api/index';
import type { Harness } from './harness';
import { workspaceId } from './harness';
import { tarGz } from './archive';

export const cleanConfiguration = {
  'main.tf': 'resource "terraform_data" "app" {\n  input = var.region\n}\n\noutput "region" {\n  value = var.region\n}\n',
  'variables.tf': 'variable "region" {\n  type    = string\n  default = "eu-west-1"\n}\n',
};

/** Uploads the clean configuration to demo-app (without queueing a run) and returns the workspace id. */
export async function plannableWorkspace(client: ServiceClient): Promise<string> {
  const id = await workspaceId(client, 'demo-app');
  const version = await client.configurationVersions.create(id, { autoQueueRuns: false });
  await client.configurationVersions.upload(version.attributes['upload-url']!, await tarGz(cleanConfiguration));
  await client.configurationVersions.waitUntilProcessed(version.id);
  return id;
}

export async function runStatus(client: ServiceClient, runId: string): Promise<string> {
  return (await client.runs.get(runId)).run.attributes.status;
}

/** Creates a run and advances the emulator until `reached(run)` holds. */
export async function runUntil(
  harness: Harness,
  client: ServiceClient,
  workspace: string,
  what: string,
  reached: (run: Run) => boolean,
  message = what,
): Promise<Run> {
  const created = await client.runs.create({ workspaceId: workspace, message });
  let latest = created;
  await harness.advanceUntil(what, async () => {
    latest = (await client.runs.get(created.id)).run;
    return reached(latest);
  }, 250);
  return latest;
}

export const pausedForConfirmation = (run: Run) => run.attributes.actions?.['is-confirmable'] === true;
export const inStatus = (status: string) => (run: Run) => run.attributes.status === status;

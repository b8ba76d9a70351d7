// "Plan local changes" (spec §1, steps 1-3 with an explicit plan-only run): pack the module folder, create a
// speculative configuration version that queues nothing by itself, upload the archive, wait until the service has
// processed it, then queue a plan-only run on it. Progress goes through LSP work-done progress.
import { stat } from 'node:fs/promises';
import type { WorkDoneProgressReporter } from 'vscode-languageserver';
import type { ServerCommandArguments, RunSummary } from '../protocol';
import type { CoreContext } from '../commands/context';
import { afterRunChange, resolveTarget } from '../commands/context';
import { invalidParams, toResponseError } from '../commands/errors';
import { localPathOf } from '../model/filePaths';
import { summarizeRun } from '../workspaces/runSummary';
import { buildConfigurationArchive } from './archive';

export const defaultLocalPlanMessage = 'Plan of local changes, queued from the editor';

export async function planLocalChanges(context: CoreContext, args: ServerCommandArguments['planLocalChanges'], workDoneToken?: string | number): Promise<RunSummary> {
  const folder = localPathOf(args.folderUri);
  const folderStats = await stat(folder).catch(() => undefined);
  if (!folderStats?.isDirectory()) throw invalidParams(`${args.folderUri} is not a folder: pass the file URI of the module folder to plan.`);
  const target = resolveTarget(context, args);
  const progress = await startProgress(context, workDoneToken);
  progress.begin('Plan local changes', 0, 'Packing the folder…');
  try {
    const { archive, files } = await buildConfigurationArchive(folder);
    if (!files.some((file) => file.endsWith('.tf') || file.endsWith('.tf.json'))) {
      throw invalidParams(`${args.folderUri} has no .tf files to plan (after .terraformignore).`);
    }
    progress.report(20, `Creating a configuration version (${files.length} files, ${Math.ceil(archive.length / 1024)} KiB)…`);
    const version = await target.client.configurationVersions.create(args.workspaceId, { speculative: true, autoQueueRuns: false });
    const uploadUrl = version.attributes['upload-url'];
    if (typeof uploadUrl !== 'string' || !uploadUrl) throw new Error('The service did not return an upload URL for the configuration version; try again.');
    progress.report(40, 'Uploading…');
    await target.client.configurationVersions.upload(uploadUrl, archive);
    progress.report(60, 'Waiting for the service to process the upload…');
    const processed = await target.client.configurationVersions.waitUntilProcessed(version.id);
    if (processed.attributes.status !== 'uploaded') {
      const reason = typeof processed.attributes['error-message'] === 'string' ? `: ${processed.attributes['error-message']}` : '';
      throw new Error(`The service could not use the upload (status ${processed.attributes.status}${reason}).`);
    }
    progress.report(80, 'Queuing a plan-only run…');
    const run = await target.client.runs.create({
      workspaceId: args.workspaceId,
      configurationVersionId: version.id,
      planOnly: true,
      message: args.message ?? defaultLocalPlanMessage,
    });
    afterRunChange(context, target, run, args.workspaceId);
    progress.done();
    return summarizeRun(run);
  } catch (error) {
    progress.done();
    throw toResponseError(error);
  }
}

/** The client's token when it sent one, else a server-created progress when the client supports it, else nothing. */
async function startProgress(context: CoreContext, token: string | number | undefined): Promise<WorkDoneProgressReporter> {
  if (token !== undefined) return context.connection.window.attachWorkDoneProgress(token);
  if (context.supportsWorkDoneProgress()) {
    try {
      return await context.connection.window.createWorkDoneProgress();
    } catch {
      // The client refused the progress: plan anyway, silently.
    }
  }
  return silentProgress;
}

const silentProgress: WorkDoneProgressReporter = {
  begin: () => undefined,
  report: () => undefined,
  done: () => undefined,
};

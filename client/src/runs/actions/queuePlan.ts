// Queue Plan: a numbered series of quick picks over every create-run option (spec §4.2), a summary before
// anything is sent, and nothing queued if the user leaves at any step.
import * as vscode from 'vscode';
import type { RunSummary } from '../../../../server/src/protocol';
import { resourceAddressesRequest } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import { prompts } from '../../userPrompts';
import { errorMessage } from '../../serverAccess';
import type { WorkspaceRef } from '../model';
import type { RunsTreeProvider } from '../tree/runsTreeProvider';
import { pickWorkspace } from './pickers';
import { parseRunVariable, planKinds, queuePlanArguments, stepsFor, summarize, type QueuePlanChoices } from './queuePlanOptions';

export async function queuePlan(deps: ClientDeps, runsView: RunsTreeProvider | undefined, given: WorkspaceRef | undefined): Promise<RunSummary | undefined> {
  const workspace = given ?? (await pickWorkspace(deps, runsView, 'Queue Plan (1/7): which workspace?'));
  if (!workspace) return undefined;
  const step = (n: number, what: string) => `Queue Plan in ${workspace.name} (${n}/7): ${what}`;

  const kind = await prompts.quickPick(planKinds.map((k) => ({ label: k.label, detail: k.detail, planKind: k.kind })), { title: step(2, 'what kind of run?') });
  if (!kind) return undefined;
  const message = await prompts.inputBox({ title: step(3, 'message'), value: 'Queued from VS Code', prompt: 'Shown in the run list', ignoreFocusOut: true });
  if (message === undefined) return undefined;
  const choices: QueuePlanChoices = { workspaceId: workspace.id, hostname: workspace.hostname, kind: kind.planKind, message };
  const steps = stepsFor(kind.planKind);

  const addresses = workspace.folderUri ? await deps.server.request(resourceAddressesRequest, { folderUri: workspace.folderUri }).catch(() => []) : [];
  const resources = addresses.map((a) => ({ label: a.address, description: a.kind === 'module' ? 'module' : undefined, detail: `${vscode.workspace.asRelativePath(vscode.Uri.parse(a.uri), true)}:${a.line + 1}` }));
  if (steps.targets && resources.length > 0) {
    const targets = await prompts.quickPickMany(resources, { title: step(4, 'target only these resources? (none = all)'), placeHolder: 'Select resources to target, or press Enter for all' });
    if (!targets) return undefined;
    choices.targetAddrs = targets.map((t) => t.label);
  }
  if (steps.replace && resources.length > 0) {
    const replace = await prompts.quickPickMany(resources.filter((r) => r.description !== 'module' && !r.label.startsWith('data.')), { title: step(5, 'replace (recreate) these resources? (none = none)') });
    if (!replace) return undefined;
    choices.replaceAddrs = replace.map((r) => r.label);
  }
  const variables: Array<{ key: string; value: string }> = [];
  for (;;) {
    const entry = await prompts.inputBox({
      title: step(6, `run variables${variables.length ? ` (${variables.map((v) => v.key).join(', ')})` : ''}`),
      prompt: 'key = HCL value (e.g. region = "eu-west-1"); leave empty to go on',
      ignoreFocusOut: true,
      validateInput: (text) => {
        if (!text.trim()) return undefined;
        const parsed = parseRunVariable(text);
        return 'error' in parsed ? parsed.error : undefined;
      },
    });
    if (entry === undefined) return undefined;
    if (!entry.trim()) break;
    const parsed = parseRunVariable(entry);
    if ('key' in parsed) variables.push(parsed);
  }
  if (variables.length) choices.variables = variables;
  if (steps.engineVersion) {
    const version = await prompts.inputBox({ title: step(7, 'Terraform version for this plan (optional)'), prompt: 'e.g. 1.11.4; empty = the workspace’s', ignoreFocusOut: true });
    if (version === undefined) return undefined;
    if (version.trim()) choices.engineVersion = version.trim();
  }

  const lines = summarize(choices, `${workspace.organization}/${workspace.name}`);
  if (choices.kind === 'destroy') {
    const answer = await prompts.modal(`Queue a destroy plan in ${workspace.organization}/${workspace.name}?`, `${lines.join('\n')}\n\nIf applied, it destroys every resource of the workspace.`, 'Queue Destroy Plan');
    if (answer !== 'Queue Destroy Plan') return undefined;
  } else {
    const go = await prompts.quickPick([{ label: '$(play) Queue plan', go: true, detail: lines.join(' · ') }, { label: 'Cancel', go: false }], { title: 'Queue Plan: summary' });
    if (!go?.go) return undefined;
  }
  try {
    const run = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Queuing a plan in ${workspace.name}…` }, () => deps.server.command('queuePlan', queuePlanArguments(choices)));
    deps.activity.queued(run);
    void prompts.information(`HCP Terraform: plan queued in ${workspace.name} (${run.statusLabel.toLowerCase()}).`, 'Show Details').then((choice) => {
      if (choice) void vscode.commands.executeCommand('hcpTerraform.showRunDetails', { kind: 'run', run, workspace });
    });
    return run;
  } catch (error) {
    void prompts.error(`HCP Terraform: the plan was not queued in ${workspace.name}: ${errorMessage(error)}`);
    return undefined;
  }
}

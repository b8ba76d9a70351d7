// Queue Plan: numbered steps with Back over every create-run option (spec §4.2), a summary before anything is
// sent, and nothing queued if the user leaves at any step.
import * as vscode from 'vscode';
import type { RunSummary } from '../../../../server/src/protocol';
import { resourceAddressesRequest } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import { back, prompts } from '../../userPrompts';
import { errorMessage } from '../../serverAccess';
import type { WorkspaceRef } from '../model';
import type { RunsTreeProvider } from '../tree/runsTreeProvider';
import { pickWorkspace } from './pickers';
import { announceQueuedRun } from './queuedRunNotice';
import { parseRunVariable, planKinds, queuePlanArguments, stepsFor, summarize, type QueuePlanChoices } from './queuePlanOptions';

export async function queuePlan(deps: ClientDeps, runsView: RunsTreeProvider | undefined, given: WorkspaceRef | undefined): Promise<RunSummary | undefined> {
  const workspace = given ?? (await pickWorkspace(deps, runsView, 'Queue Plan: which workspace?'));
  if (!workspace) return undefined;
  const addresses = workspace.folderUri ? await deps.server.request(resourceAddressesRequest, { folderUri: workspace.folderUri }).catch(() => []) : [];
  const resources = addresses.map((a) => ({ label: a.address, description: a.kind === 'module' ? 'module' : undefined, detail: `${vscode.workspace.asRelativePath(vscode.Uri.parse(a.uri), true)}:${a.line + 1}` }));
  const choices = await askChoices(workspace, resources);
  if (!choices) return undefined;
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
    announceQueuedRun(deps, run, workspace, 'plan');
    return run;
  } catch (error) {
    void prompts.error(`HCP Terraform: the plan was not queued in ${workspace.name}: ${errorMessage(error)}`);
    return undefined;
  }
}

const totalSteps = 6;

/**
 * The steps after the workspace, each with Back: kind, message, targets, replacements, run variables (one per
 * entry, an empty entry goes on), and the Terraform version for a plan-only run. Steps that do not apply to the
 * chosen kind are skipped both ways. Undefined when the user left.
 */
async function askChoices(workspace: WorkspaceRef, resources: Array<{ label: string; description?: string; detail: string }>): Promise<QueuePlanChoices | undefined> {
  const choices: QueuePlanChoices = { workspaceId: workspace.id, hostname: workspace.hostname, kind: 'plan-and-apply', message: 'Queued from VS Code' };
  const title = (what: string) => `Queue Plan in ${workspace.name}: ${what}`;
  const applies = (step: number): boolean => {
    const steps = stepsFor(choices.kind);
    if (step === 3) return steps.targets && resources.length > 0;
    if (step === 4) return steps.replace && resources.some((r) => r.description !== 'module' && !r.label.startsWith('data.'));
    if (step === 6) return steps.engineVersion;
    return true;
  };
  let step = 1;
  while (step <= totalSteps) {
    if (!applies(step)) {
      step++;
      continue;
    }
    const answer = await askStep(step, choices, resources, title);
    if (answer === undefined) return undefined;
    if (answer === back) {
      do step--;
      while (step > 1 && !applies(step));
      if (step < 1) return undefined;
      continue;
    }
    if (answer !== 'again') step++;
  }
  return choices;
}

async function askStep(step: number, choices: QueuePlanChoices, resources: Array<{ label: string; description?: string; detail: string }>, title: (what: string) => string): Promise<typeof back | 'next' | 'again' | undefined> {
  const at = { step, totalSteps };
  switch (step) {
    case 1: {
      const kind = await prompts.stepPick(planKinds.map((k) => ({ label: k.label, detail: k.detail, planKind: k.kind, picked: k.kind === choices.kind })), { ...at, title: title('what kind of run?') });
      if (kind === undefined || kind === back) return kind;
      choices.kind = kind.planKind;
      return 'next';
    }
    case 2: {
      const message = await prompts.stepInput({ ...at, title: title('message'), value: choices.message, prompt: 'Shown in the run list' });
      if (message === undefined || message === back) return message;
      choices.message = message;
      return 'next';
    }
    case 3: {
      const targets = await prompts.stepPickMany(resources.map((r) => ({ ...r, picked: choices.targetAddrs?.includes(r.label) ?? false })), { ...at, title: title('target only these resources? (none selected = all)') });
      if (targets === undefined || targets === back) return targets;
      choices.targetAddrs = targets.map((t) => t.label);
      return 'next';
    }
    case 4: {
      const replaceable = resources.filter((r) => r.description !== 'module' && !r.label.startsWith('data.'));
      const replace = await prompts.stepPickMany(replaceable.map((r) => ({ ...r, picked: choices.replaceAddrs?.includes(r.label) ?? false })), { ...at, title: title('replace (recreate) these resources? (none selected = none)') });
      if (replace === undefined || replace === back) return replace;
      choices.replaceAddrs = replace.map((r) => r.label);
      return 'next';
    }
    case 5: {
      const known = choices.variables ?? [];
      const entry = await prompts.stepInput({
        ...at,
        title: title(`run variables${known.length ? ` (${known.map((v) => v.key).join(', ')})` : ''}`),
        prompt: 'key = HCL value (e.g. region = "eu-west-1"), Enter to add it; leave empty and press Enter to go on',
        validate: (text) => {
          if (!text.trim()) return undefined;
          const parsed = parseRunVariable(text);
          return 'error' in parsed ? parsed.error : undefined;
        },
      });
      if (entry === undefined || entry === back) return entry;
      if (!entry.trim()) return 'next';
      const parsed = parseRunVariable(entry);
      if ('key' in parsed) choices.variables = [...known.filter((v) => v.key !== parsed.key), parsed];
      return 'again';
    }
    default: {
      const version = await prompts.stepInput({ ...at, title: title('Terraform version for this plan (optional)'), value: choices.engineVersion ?? '', prompt: 'e.g. 1.11.4; empty = the workspace’s' });
      if (version === undefined || version === back) return version;
      choices.engineVersion = version.trim() || undefined;
      return 'next';
    }
  }
}

// The Queue Plan steps after the workspace, each with Back: kind, message, targets, replacements, run options, run
// variables (checked by the server as they are typed), and the Terraform version of a plan-only run. Steps that do
// not apply to the chosen kind are skipped both ways.
import * as vscode from 'vscode';
import { checkRunVariableRequest } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import { errorMessage } from '../../serverAccess';
import { back, prompts } from '../../userPrompts';
import type { InputVerdict } from '../../userPrompts';
import type { WorkspaceRef } from '../model';
import { optionsFor, parseRunVariable, planKindsFor, runOptions, stepsFor, type QueuePlanChoices } from './queuePlanOptions';

export interface ResourceItem {
  label: string;
  description?: string;
  detail: string;
}

const totalSteps = 7;
const enum Step {
  Kind = 1,
  Message,
  Targets,
  Replace,
  Options,
  Variables,
  EngineVersion,
}

/** The choices, starting from `given` (a retry keeps what was chosen); undefined when the user left. */
export async function askChoices(deps: ClientDeps, workspace: WorkspaceRef, resources: ResourceItem[], given?: QueuePlanChoices): Promise<QueuePlanChoices | undefined> {
  const choices: QueuePlanChoices = given ?? { workspaceId: workspace.id, hostname: workspace.hostname, kind: 'plan-and-apply', message: 'Queued from VS Code' };
  const title = (what: string) => `Queue Plan in ${workspace.name}: ${what}`;
  const applies = (step: number): boolean => {
    const steps = stepsFor(choices.kind);
    if (step === Step.Targets) return steps.targets && resources.length > 0;
    if (step === Step.Replace) return steps.replace && replaceable(resources).length > 0;
    if (step === Step.Options) return optionsFor(choices.kind).length > 0;
    if (step === Step.EngineVersion) return steps.engineVersion;
    return true;
  };
  let step: number = Step.Kind;
  while (step <= totalSteps) {
    if (!applies(step)) {
      step++;
      continue;
    }
    const answer = await askStep(deps, workspace, step, choices, resources, title);
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

function replaceable(resources: ResourceItem[]): ResourceItem[] {
  return resources.filter((r) => r.description !== 'module' && !r.label.startsWith('data.'));
}

async function askStep(deps: ClientDeps, workspace: WorkspaceRef, step: number, choices: QueuePlanChoices, resources: ResourceItem[], title: (what: string) => string): Promise<typeof back | 'next' | 'again' | undefined> {
  const at = { step, totalSteps };
  switch (step) {
    case Step.Kind: {
      const kind = await prompts.stepPick(planKindsFor(workspace.permissions).map((k) => ({ label: k.label, detail: k.detail, planKind: k.kind, picked: k.kind === choices.kind })), { ...at, title: title('what kind of run?') });
      if (kind === undefined || kind === back) return kind;
      choices.kind = kind.planKind;
      return 'next';
    }
    case Step.Message: {
      const message = await prompts.stepInput({ ...at, title: title('message'), value: choices.message, prompt: 'Shown in the run list' });
      if (message === undefined || message === back) return message;
      choices.message = message;
      return 'next';
    }
    case Step.Targets: {
      const targets = await prompts.stepPickMany(resources.map((r) => ({ ...r, picked: choices.targetAddrs?.includes(r.label) ?? false })), { ...at, title: title('target only these resources? (none selected = all)') });
      if (targets === undefined || targets === back) return targets;
      choices.targetAddrs = targets.map((t) => t.label);
      return 'next';
    }
    case Step.Replace: {
      const replace = await prompts.stepPickMany(replaceable(resources).map((r) => ({ ...r, picked: choices.replaceAddrs?.includes(r.label) ?? false })), { ...at, title: title('replace (recreate) these resources? (none selected = none)') });
      if (replace === undefined || replace === back) return replace;
      choices.replaceAddrs = replace.map((r) => r.label);
      return 'next';
    }
    case Step.Options: {
      const offered = optionsFor(choices.kind);
      const items = runOptions.filter((o) => offered.includes(o.option)).map((o) => ({ label: o.label, detail: o.detail, option: o.option, picked: choices.options?.includes(o.option) ?? false }));
      const picked = await prompts.stepPickMany(items, { ...at, title: title('run options (none selected = the defaults)') });
      if (picked === undefined || picked === back) return picked;
      choices.options = picked.map((p) => p.option);
      return 'next';
    }
    case Step.Variables: {
      const known = choices.variables ?? [];
      const entry = await prompts.stepInput({
        ...at,
        title: title(`run variables${known.length ? ` (${known.map((v) => v.key).join(', ')})` : ''}`),
        prompt: 'key = HCL value (e.g. region = "eu-west-1"), Enter to add it; leave empty and press Enter to go on',
        validate: (text) => runVariableVerdict(deps, workspace, text),
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

/**
 * A run variable as typed: its shape here, then the server's check (an HCL literal, and against the linked folder's
 * declarations), so a value the service would refuse is told before the summary, not after it.
 */
export async function runVariableVerdict(deps: ClientDeps, workspace: WorkspaceRef, text: string): Promise<InputVerdict> {
  if (!text.trim()) return undefined;
  const parsed = parseRunVariable(text);
  if ('error' in parsed) return parsed.error;
  try {
    const verdict = await deps.server.request(checkRunVariableRequest, { key: parsed.key, value: parsed.value, ...(workspace.folderUri ? { folderUri: workspace.folderUri } : {}) });
    if (verdict.error) return verdict.error;
    if (verdict.warning) return { message: verdict.warning, severity: vscode.InputBoxValidationSeverity.Warning };
    return undefined;
  } catch (error) {
    // The server checks it again when the plan is queued: a failed check here must not stop the user.
    return { message: `Could not check the value now (${errorMessage(error)}); it is checked when the plan is queued.`, severity: vscode.InputBoxValidationSeverity.Info };
  }
}

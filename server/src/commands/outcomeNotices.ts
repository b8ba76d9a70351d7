// What a command did, in a sentence, for editors that do not show a command's result: Neovim, Helix and Emacs
// ignore the answer to workspace/executeCommand, so "Queue a plan" picked from a code action looked like nothing
// happened. VS Code shows its own (initializationOptions.prompts.commandOutcomes). Never a secret: a generated
// organization token stays in the command's result.
import type { RunSummary, ServerCommandResults, ServerCommandVerb, VariableSummary } from '../protocol';

export function outcomeSentence<V extends ServerCommandVerb>(verb: V, result: ServerCommandResults[V]): string | undefined {
  const run = result as RunSummary;
  const variable = result as VariableSummary;
  switch (verb) {
    case 'queuePlan':
      return `HCP Terraform: ${run.isDestroy ? 'destroy plan' : 'plan'} queued, run ${run.id} (${run.statusLabel}).`;
    case 'planLocalChanges':
      return `HCP Terraform: plan of your local files queued, run ${run.id} (${run.statusLabel}).`;
    case 'applyRun':
      return `HCP Terraform: apply confirmed for run ${run.id} (${run.statusLabel}).`;
    case 'discardRun':
      return `HCP Terraform: run ${run.id} discarded (${run.statusLabel}).`;
    case 'cancelRun':
      return `HCP Terraform: cancel sent for run ${run.id} (${run.statusLabel}).`;
    case 'forceCancelRun':
      return `HCP Terraform: force-cancel sent for run ${run.id} (${run.statusLabel}).`;
    case 'forceExecuteRun':
      return `HCP Terraform: run ${run.id} started ahead of the run that held its workspace (${run.statusLabel}).`;
    case 'createChangeRequest':
      return 'HCP Terraform: change request opened.';
    case 'archiveChangeRequest':
      return 'HCP Terraform: change request archived.';
    case 'generateOrganizationToken':
      return "HCP Terraform: organization token generated. Its secret is in the command's result, this once only; it replaced any earlier token.";
    case 'deleteOrganizationToken':
      return 'HCP Terraform: organization token deleted.';
    case 'createVariable':
      return `HCP Terraform: workspace variable "${variable.key}" set.`;
    case 'updateVariable':
      return `HCP Terraform: workspace variable "${variable.key}" updated.`;
    case 'deleteVariable':
      return 'HCP Terraform: workspace variable deleted.';
    default:
      // showPlanOnCode and showInfo show their outcome themselves (the plan on the code; a lens's text).
      return undefined;
  }
}

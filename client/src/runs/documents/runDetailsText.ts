// A run's details as markdown, shown rendered (the markdown preview): status and timeline, message, trigger, every
// option the run was queued with, counts, cost and policies. Pure (no vscode import), so it is unit-tested; the
// service's text is escaped so the preview shows it as written: never as markup, a link, HTML or an entity.
import type { RunDetails, RunSummary } from '../../../../server/src/protocol';
import { operationLabel, policyCheckFinished, resourceCounts, sourceLabel } from '../tree/runPresentation';

export function runDetailsMarkdown(details: RunDetails, workspace: { organization?: string; name?: string } = {}): string {
  const { run } = details;
  const out: string[] = [];
  const title = (run.message ?? '').split(/\r?\n/)[0]?.trim() || `Run ${run.id}`;
  out.push(`# ${quote(title)}`, '');
  out.push(`**Status:** ${quote(run.statusLabel)} (\`${code(run.status)}\`)  `);
  if (workspace.organization && workspace.name) out.push(`**Workspace:** ${quote(`${workspace.organization}/${workspace.name}`)}  `);
  out.push(`**Run:** \`${code(run.id)}\`  `);
  out.push(`**Operation:** ${operationLabel(run)}  `);
  if (run.source) out.push(`**Trigger:** ${quote(sourceLabel(run.source) ?? run.source)}  `);
  if (run.createdBy) out.push(`**Queued by:** ${quote(run.createdBy)}  `);
  if (run.createdAt) out.push(`**Queued at:** ${quote(run.createdAt)}  `);
  if (run.message && run.message.includes('\n')) out.push('', '## Message', '', ...run.message.split(/\r?\n/).map((line) => `> ${quote(line)}`));

  const options = runOptions(run);
  if (options.length) out.push('', '## Options', '', ...options);

  const timeline = Object.entries(run.statusTimestamps ?? {}).sort(([, a], [, b]) => a.localeCompare(b));
  if (timeline.length) {
    out.push('', '## Timeline', '', '| when | status |', '|---|---|');
    for (const [key, at] of timeline) out.push(`| ${quote(at)} | ${quote(key.replace(/-at$/, '').replace(/[-_]/g, ' '))} |`);
  }

  out.push('', '## Phases', '');
  if (details.plan) out.push(`- Plan: ${quote(details.plan.status)}${counts(details.plan)}`);
  if (details.costEstimate) {
    const c = details.costEstimate;
    out.push(`- Cost estimate: ${quote(c.status)}${c.proposedMonthlyCost ? `, $${quote(c.proposedMonthlyCost)} per month` : ''}${c.deltaMonthlyCost ? ` (change: $${quote(c.deltaMonthlyCost)})` : ''}`);
  }
  for (const check of details.policyChecks ?? []) {
    const r = check.result;
    // A check not run yet has a result of zeros: "0 passed" would say it ran.
    const result = r && policyCheckFinished(check.status) ? `: ${r.passed ?? 0} passed, ${r.softFailed ?? 0} soft-failed, ${r.hardFailed ?? 0} hard-failed, ${r.advisoryFailed ?? 0} advisory` : '';
    out.push(`- Policy check: ${quote(check.status.replace(/_/g, ' '))}${result}`);
  }
  if (details.apply) out.push(`- Apply: ${quote(details.apply.status)}${counts(details.apply)}`);
  if (!details.plan && !details.apply && !details.costEstimate && !details.policyChecks?.length) out.push('- None yet');
  return `${out.join('\n')}\n`;
}

/** Every option the run was queued with (spec §4.2), as list items; the defaults are not repeated. */
function runOptions(run: RunSummary): string[] {
  const addresses = (list: string[]) => list.map((address) => `\`${code(address)}\``).join(', ');
  const options: string[] = [];
  if (run.planOnly) options.push('- Plan only');
  if (run.isDestroy) options.push('- Destroy');
  if (run.refreshOnly) options.push('- Refresh only');
  if (run.savePlan) options.push('- Save plan');
  if (run.autoApply) options.push('- Auto-apply: applies without confirmation once planned');
  if (run.allowEmptyApply) options.push('- Empty apply allowed');
  if (run.allowConfigGeneration) options.push('- Configuration generation allowed');
  if (run.debuggingMode) options.push('- Debugging mode');
  if (run.refresh === false) options.push('- No refresh: the state is not refreshed before planning');
  if (run.targetAddrs?.length) options.push(`- Targets: ${addresses(run.targetAddrs)}`);
  if (run.replaceAddrs?.length) options.push(`- Replace: ${addresses(run.replaceAddrs)}`);
  // Keys only: a run variable's value may be a secret, and the server never passes it on.
  if (run.variableKeys?.length) options.push(`- Run variables: ${addresses(run.variableKeys)}`);
  if (run.terraformVersion) options.push(`- Terraform version: ${quote(run.terraformVersion)}`);
  return options;
}

function counts(phase: { resourceAdditions?: number; resourceChanges?: number; resourceDestructions?: number }): string {
  const text = resourceCounts(phase);
  if (!text) return '';
  return ` (${phase.resourceAdditions ?? 0} to add, ${phase.resourceChanges ?? 0} to change, ${phase.resourceDestructions ?? 0} to destroy)`;
}

/**
 * Text the preview shows as written: every character that can start markup is backslash-escaped (CommonMark allows
 * it for any punctuation), so no emphasis, link, HTML, list, table cell or heading, and `&amp;` stays `&amp;`
 * instead of becoming `&`.
 */
function quote(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&=]/g, (c) => `\\${c}`);
}

/** Inside a code span nothing is markup; only a backquote could end it. */
function code(text: string): string {
  return text.replace(/`/g, "'");
}

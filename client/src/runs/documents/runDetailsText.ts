// A run's details as markdown: status and timeline, message, trigger, options, counts, cost and policies. Pure (no
// vscode import), so it is unit-tested; the service's text is quoted so it cannot become markup or links.
import type { RunDetails } from '../../../../server/src/protocol';
import { operationLabel, resourceCounts, sourceLabel } from '../tree/runPresentation';

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
  if (run.createdAt) out.push(`**Queued at:** ${run.createdAt}  `);
  if (run.message && run.message.includes('\n')) out.push('', '## Message', '', ...run.message.split(/\r?\n/).map((line) => `> ${quote(line)}`));

  const options: string[] = [];
  if (run.targetAddrs?.length) options.push(`- Targets: ${run.targetAddrs.map((a) => `\`${code(a)}\``).join(', ')}`);
  if (run.replaceAddrs?.length) options.push(`- Replace: ${run.replaceAddrs.map((a) => `\`${code(a)}\``).join(', ')}`);
  if (run.planOnly) options.push('- Plan only');
  if (run.isDestroy) options.push('- Destroy');
  if (run.refreshOnly) options.push('- Refresh only');
  if (run.savePlan) options.push('- Save plan');
  if (run.terraformVersion) options.push(`- Terraform version: ${quote(run.terraformVersion)}`);
  if (options.length) out.push('', '## Options', '', ...options);

  const timeline = Object.entries(run.statusTimestamps ?? {}).sort(([, a], [, b]) => a.localeCompare(b));
  if (timeline.length) {
    out.push('', '## Timeline', '', '| when | status |', '|---|---|');
    for (const [key, at] of timeline) out.push(`| ${at} | ${quote(key.replace(/-at$/, '').replace(/[-_]/g, ' '))} |`);
  }

  out.push('', '## Phases', '');
  if (details.plan) out.push(`- Plan: ${quote(details.plan.status)}${counts(details.plan)}`);
  if (details.costEstimate) {
    const c = details.costEstimate;
    out.push(`- Cost estimate: ${quote(c.status)}${c.proposedMonthlyCost ? `, $${quote(c.proposedMonthlyCost)} per month` : ''}${c.deltaMonthlyCost ? ` (change: $${quote(c.deltaMonthlyCost)})` : ''}`);
  }
  for (const check of details.policyChecks ?? []) {
    const r = check.result;
    const result = r ? `: ${r.passed ?? 0} passed, ${r.softFailed ?? 0} soft-failed, ${r.hardFailed ?? 0} hard-failed, ${r.advisoryFailed ?? 0} advisory` : '';
    out.push(`- Policy check: ${quote(check.status)}${result}`);
  }
  if (details.apply) out.push(`- Apply: ${quote(details.apply.status)}${counts(details.apply)}`);
  if (!details.plan && !details.apply && !details.costEstimate && !details.policyChecks?.length) out.push('- None yet');
  return `${out.join('\n')}\n`;
}

function counts(phase: { resourceAdditions?: number; resourceChanges?: number; resourceDestructions?: number }): string {
  const text = resourceCounts(phase);
  if (!text) return '';
  return ` (${phase.resourceAdditions ?? 0} to add, ${phase.resourceChanges ?? 0} to change, ${phase.resourceDestructions ?? 0} to destroy)`;
}

/** Markdown-inert text: no emphasis, links, HTML or headings from what the service or a user wrote. */
function quote(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>~]/g, (c) => `\\${c}`);
}

function code(text: string): string {
  return text.replace(/`/g, "'");
}

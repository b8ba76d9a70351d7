// How a workspace variable looks in the Variables view. No `vscode` import: unit-tested with node:test. A sensitive
// variable's value never reaches here (the server leaves it out); it reads "sensitive" wherever a value would be.
import type { VariableDeclarationSummary, VariableSummary } from '../../../server/src/protocol';
import { escapeMarkdown } from '../runs/tree/runPresentation';

export const categoryLabels: Record<string, string> = { engine: 'Terraform', terraform: 'Terraform', env: 'environment' };

/** Engine (Terraform) variables first, then environment ones, each by key. */
export function sortVariables(list: readonly VariableSummary[]): VariableSummary[] {
  const rank = (v: VariableSummary) => (v.category === 'env' ? 1 : 0);
  return [...list].sort((a, b) => rank(a) - rank(b) || a.key.localeCompare(b.key));
}

/** Whether the linked folder's code declares it (only Terraform variables can be declared; env ones never are). */
export function declarationOf(variable: VariableSummary, declarations: readonly VariableDeclarationSummary[] | undefined): VariableDeclarationSummary | undefined {
  if (!declarations || variable.category === 'env') return undefined;
  return declarations.find((d) => d.name === variable.key);
}

export function isUndeclared(variable: VariableSummary, declarations: readonly VariableDeclarationSummary[] | undefined): boolean {
  return declarations !== undefined && variable.category !== 'env' && !declarationOf(variable, declarations);
}

/** "Terraform · HCL · = 3", "environment · sensitive", "Terraform · not declared in code". */
export function variableDescription(variable: VariableSummary, declarations: readonly VariableDeclarationSummary[] | undefined): string {
  const value = variable.sensitive ? 'sensitive' : variable.value !== undefined ? `= ${shorten(variable.value)}` : undefined;
  return [categoryLabels[variable.category] ?? variable.category, variable.hcl ? 'HCL' : undefined, value, isUndeclared(variable, declarations) ? 'not declared in code' : undefined]
    .filter(Boolean)
    .join(' · ');
}

export function variableTooltipMarkdown(variable: VariableSummary, declarations: readonly VariableDeclarationSummary[] | undefined): string {
  const lines = [`**${escapeMarkdown(variable.key)}** (${categoryLabels[variable.category] ?? escapeMarkdown(variable.category)} variable)`];
  if (variable.description) lines.push('', escapeMarkdown(variable.description));
  lines.push('', `Value: ${variable.sensitive ? '_sensitive (write-only: the service never shows it)_' : variable.value === undefined ? '_unknown_' : `\`${variable.value.replace(/`/g, "'")}\``}`);
  if (variable.hcl) lines.push('', 'Evaluated as HCL.');
  if (isUndeclared(variable, declarations)) lines.push('', '$(warning) No `variable` block in the linked folder declares it: runs ignore it (or warn).');
  else if (declarationOf(variable, declarations)) lines.push('', 'Declared in the linked folder\'s code: Go to Declaration opens its `variable` block.');
  return lines.join('\n');
}

/** Menus key on these words. */
export function variableContextValue(variable: VariableSummary, declarations: readonly VariableDeclarationSummary[] | undefined): string {
  return ['hcpVariable', variable.category === 'env' ? 'env' : 'engine', variable.sensitive ? 'sensitive' : undefined, declarationOf(variable, declarations) ? 'declared' : undefined, isUndeclared(variable, declarations) ? 'undeclared' : undefined]
    .filter(Boolean)
    .join(' ');
}

function shorten(value: string): string {
  const oneLine = value.replace(/\s+/g, ' ');
  return oneLine.length > 40 ? `${oneLine.slice(0, 39)}…` : oneLine;
}

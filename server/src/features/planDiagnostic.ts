// ONE information diagnostic on the cloud block for what the plan does that no block of the code shows: resources
// it destroys whose block is gone, and changes inside modules without local code (registry, git).
import { DiagnosticSeverity } from 'vscode-languageserver';
import type { Diagnostic } from 'vscode-languageserver';
import type { Range } from '../model';
import type { PlanOverlay } from '../protocol';

export const planUnmatchedCode = 'plan-unmatched';
const maxNamed = 5;

export function planUnmatchedDiagnostic(overlay: PlanOverlay, cloudBlockRange: Range): Diagnostic | undefined {
  if (overlay.unmatched.length === 0) return undefined;
  const destroyed = overlay.unmatched.filter((change) => change.action === 'delete').map((change) => change.address);
  const other = overlay.unmatched.filter((change) => change.action !== 'delete' && change.action !== 'no-op').map((change) => change.address);
  const sentences: string[] = [];
  if (destroyed.length > 0) sentences.push(`${count(destroyed.length, 'resource')} will be destroyed: ${names(destroyed)}`);
  if (other.length > 0) sentences.push(`${count(other.length, 'resource')} ${other.length === 1 ? 'changes' : 'change'} in code not in this folder: ${names(other)}`);
  if (sentences.length === 0) return undefined;
  const stale = overlay.stale ? ' (the plan may be out of date)' : '';
  return {
    range: { start: cloudBlockRange.start, end: { line: cloudBlockRange.start.line, character: cloudBlockRange.start.character + 5 } },
    severity: DiagnosticSeverity.Information,
    source: 'hcp-terraform',
    code: planUnmatchedCode,
    message: `Plan of run ${overlay.runId}${stale}: ${sentences.join('; ')}.`,
  };
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function names(addresses: readonly string[]): string {
  const shown = addresses.slice(0, maxNamed).join(', ');
  return addresses.length > maxNamed ? `${shown} and ${addresses.length - maxNamed} more` : shown;
}

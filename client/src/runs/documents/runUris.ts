import * as vscode from 'vscode';

export const runScheme = 'hcp-terraform-run';

/** What a run document shows: the run's details, or one phase's log, of a run on a host. */
export interface RunDocumentAddress {
  hostname: string;
  runId: string;
  kind: 'details' | 'log';
  phase?: 'plan' | 'apply';
}

/** `hcp-terraform-run://<host>/<run-id>/details.md`, `…/plan.log`, `…/apply.log`: the host says whom to ask. */
export function runDocumentUri(address: RunDocumentAddress): vscode.Uri {
  const file = address.kind === 'details' ? 'details.md' : `${address.phase ?? 'plan'}.log`;
  return vscode.Uri.from({ scheme: runScheme, authority: address.hostname, path: `/${address.runId}/${file}` });
}

export function parseRunDocumentUri(uri: vscode.Uri): RunDocumentAddress | undefined {
  const match = /^\/([^/]+)\/(details\.md|plan\.log|apply\.log)$/.exec(uri.path);
  if (uri.scheme !== runScheme || !match || !uri.authority) return undefined;
  const [, runId, file] = match;
  if (file === 'details.md') return { hostname: uri.authority, runId: runId!, kind: 'details' };
  return { hostname: uri.authority, runId: runId!, kind: 'log', phase: file === 'plan.log' ? 'plan' : 'apply' };
}

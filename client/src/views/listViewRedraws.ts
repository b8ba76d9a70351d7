// When a view that reads each workspace's list as it is drawn (Change Requests, Variables) draws again: the server
// (re)started, a folder's link changed, the pins changed, the service answers again after a failed read
// (LastReads.redrawOnRecovery), or the account changed (what the previous one read is forgotten first, so nothing
// of it stays on screen, even as a fallback).
import type * as vscode from 'vscode';
import type { ClientDeps } from '../clientDeps';
import { onDidChangePins } from '../runs/tree/pins';
import type { LastReads } from './staleList';

export function listViewRedraws<T>(deps: ClientDeps, lastReads: LastReads<T>, redraw: () => void): vscode.Disposable[] {
  return [
    deps.server.onDidStart(redraw),
    deps.events.onWorkspaceChanged(redraw),
    onDidChangePins(redraw),
    lastReads.redrawOnRecovery(deps.events.onRunsChanged, redraw),
    deps.credentials.onDidChange(() => {
      lastReads.forget();
      redraw();
    }),
  ];
}

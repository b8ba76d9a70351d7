import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import {
  planOverlayChangedNotification,
  runsChangedNotification,
  signInNeededNotification,
  workspaceChangedNotification,
  type LinkedFolder,
  type PlanOverlay,
  type RunsChangedParams,
  type SignInNeededParams,
} from '../../server/src/protocol';

/**
 * The server's notifications as VS Code events. vscode-jsonrpc keeps ONE handler per method (a second
 * onNotification replaces the first), so the client registers each once, here, and everything else subscribes.
 */
export class ServerEvents implements vscode.Disposable {
  private readonly runs = new vscode.EventEmitter<RunsChangedParams>();
  private readonly workspace = new vscode.EventEmitter<LinkedFolder>();
  private readonly signIn = new vscode.EventEmitter<SignInNeededParams>();
  private readonly planOverlay = new vscode.EventEmitter<{ folderUri: string; overlay: PlanOverlay | null }>();
  readonly onRunsChanged = this.runs.event;
  readonly onWorkspaceChanged = this.workspace.event;
  readonly onSignInNeeded = this.signIn.event;
  /** A folder's plan overlay appeared, changed or went away (`overlay: null`). */
  readonly onPlanOverlayChanged = this.planOverlay.event;
  private registrations: vscode.Disposable[] = [];

  /** Routes a (re)started client's notifications into the events; the previous client's are dropped. */
  attach(client: LanguageClient): void {
    this.detach();
    this.registrations = [
      client.onNotification(runsChangedNotification, (params) => this.runs.fire(params)),
      client.onNotification(workspaceChangedNotification, (params) => this.workspace.fire(params)),
      client.onNotification(signInNeededNotification, (params) => this.signIn.fire(params)),
      client.onNotification(planOverlayChangedNotification, (params) => this.planOverlay.fire(params)),
    ];
  }

  detach(): void {
    for (const registration of this.registrations) registration.dispose();
    this.registrations = [];
  }

  dispose(): void {
    this.detach();
    this.runs.dispose();
    this.workspace.dispose();
    this.signIn.dispose();
    this.planOverlay.dispose();
  }
}

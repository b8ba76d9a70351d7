import type * as vscode from 'vscode';
import type { ClientDeps } from '../clientDeps';

/** Placeholder: built by its own change. */
export function registerRunDocuments(_context: vscode.ExtensionContext, _deps: ClientDeps): void {}

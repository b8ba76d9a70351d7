import * as vscode from 'vscode';

/** The extension's one output channel; a LogOutputChannel so the user picks the level and lines carry timestamps. */
export const log: vscode.LogOutputChannel = vscode.window.createOutputChannel('HCP Terraform', { log: true });

// A Connection stub for registerDocumentSync: it keeps the document handlers the sync registers, so a test calls
// them as the client's notifications would.
import type { Connection, DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams } from 'vscode-languageserver';

export interface SyncHandlers {
  open?: (params: DidOpenTextDocumentParams) => void;
  change?: (params: DidChangeTextDocumentParams) => void;
  close?: (params: DidCloseTextDocumentParams) => void;
}

export function syncConnection(): { connection: Connection; handlers: SyncHandlers } {
  const handlers: SyncHandlers = {};
  const connection = {
    onDidOpenTextDocument: (handler: SyncHandlers['open']) => (handlers.open = handler),
    onDidChangeTextDocument: (handler: SyncHandlers['change']) => (handlers.change = handler),
    onDidCloseTextDocument: (handler: SyncHandlers['close']) => (handlers.close = handler),
    onDidChangeWatchedFiles: () => undefined,
  } as unknown as Connection;
  return { connection, handlers };
}

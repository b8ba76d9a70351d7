// Wires the language server's features to a connection. The connection is passed in so tests can run the
// server in-process over streams, and the same code serves stdio and IPC.
import type { Connection, InitializeResult } from 'vscode-languageserver';
import type { InitializationOptions } from './protocol';
import { serverStatusRequest } from './protocol';
import { serverVersion } from './version';

export const defaultAddress = 'https://app.terraform.io';

export function startServer(connection: Connection): void {
  let options: InitializationOptions = {};

  connection.onInitialize((params): InitializeResult => {
    options = readInitializationOptions(params.initializationOptions);
    return {
      capabilities: {},
      serverInfo: { name: 'hcp-terraform-language-server', version: serverVersion },
    };
  });

  connection.onRequest(serverStatusRequest, () => ({
    version: serverVersion,
    address: options.address ?? defaultAddress,
    signedIn: typeof options.token === 'string' && options.token.length > 0,
  }));
}

/** Keeps only well-typed options: a wrong value from a client is ignored with a warning, never a crash. */
function readInitializationOptions(raw: unknown): InitializationOptions {
  if (typeof raw !== 'object' || raw === null) return {};
  const { address, token } = raw as Record<string, unknown>;
  return {
    address: typeof address === 'string' && address.length > 0 ? address : undefined,
    token: typeof token === 'string' && token.length > 0 ? token : undefined,
  };
}

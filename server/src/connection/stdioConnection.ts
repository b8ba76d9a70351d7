// The server's connection as its command line asks for it. Over `--stdio` (Neovim, Helix, Emacs, the bench) it is
// built here, so that responses go out through FrameWriter; `--node-ipc` (VS Code) and `--socket` are left to
// vscode-languageserver, which reads them from the command line.
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import type { Connection } from 'vscode-languageserver/node';
import { FrameWriter } from './frameWriter';

export function createCommandLineConnection(argv: readonly string[] = process.argv): Connection {
  if (!argv.slice(2).includes('--stdio')) return createConnection(ProposedFeatures.all);
  // Given process.stdin as a stream, the library still ends the server when the editor closes it.
  const connection = createConnection(ProposedFeatures.all, process.stdin, new FrameWriter(process.stdout));
  routeConsoleToClient(connection);
  return connection;
}

/**
 * Over stdio, stdout is the protocol: a stray console.log (ours or a dependency's, such as the parser's wasm runtime
 * printing) would corrupt it. The library does this itself only for the connection it builds from `--stdio`, which
 * this one is not, so console output is sent to the client's log here. stderr is not the protocol and stays as it is.
 */
export function routeConsoleToClient(connection: Connection): void {
  const toClientLog = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      connection.console.log(String(chunk).replace(/\n$/, ''));
      done();
    },
  });
  globalThis.console = new Console({ stdout: toClientLog, stderr: process.stderr });
}

// The server's connection as its command line asks for it. Over `--stdio` (Neovim, Helix, Emacs, the bench) it is
// built here, so that responses go out through FrameWriter; `--node-ipc` (VS Code) and `--socket` are left to
// vscode-languageserver, which reads them from the command line.
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import type { Connection } from 'vscode-languageserver/node';
import { FrameWriter } from './frameWriter';

export interface CommandLineConnection {
  connection: Connection;
  /** Sends the messages `send` writes in one write, where the transport allows (see FrameWriter.together). */
  sendTogether?(send: () => void): void;
}

export function createCommandLineConnection(): CommandLineConnection {
  if (!process.argv.slice(2).includes('--stdio')) return { connection: createConnection(ProposedFeatures.all) };
  // Given process.stdin as a stream, the library still ends the server when the editor closes it (it does so only
  // for an input that is a stream, not a MessageReader). Its typings have no overload for a stream with a writer;
  // at run time it takes a writer (an object without addListener) as it is.
  const writer = new FrameWriter(process.stdout);
  const connection = createConnection(ProposedFeatures.all, process.stdin, writer as unknown as NodeJS.WritableStream);
  routeConsoleToClient(connection);
  return { connection, sendTogether: (send) => writer.together(send) };
}

/**
 * Over stdio, stdout is the protocol: a stray console.log (ours or a dependency's, such as the parser's wasm runtime
 * printing) would corrupt it. The library does this itself only for the connection it builds from `--stdio`, which
 * this one is not. As the library does, the methods of the console object itself are replaced (a module may hold
 * that object), here by those of a Console whose stdout is the client's log. stderr is not the protocol and stays.
 */
export function routeConsoleToClient(connection: Connection): void {
  const toClientLog = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      try {
        connection.console.log(String(chunk).replace(/\n$/, ''));
      } catch {
        // The connection is closed (the editor went away): the line has nowhere to go. Never left unfinished, or
        // every later line would wait behind it.
      } finally {
        done();
      }
    },
  });
  const routed = new Console({ stdout: toClientLog, stderr: process.stderr }) as unknown as Record<string, unknown>;
  const target = console as unknown as Record<string, unknown>;
  for (const [name, method] of Object.entries(routed)) if (typeof method === 'function') target[name] = method;
}

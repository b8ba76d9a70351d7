// The server on the connection its command line asks for: `--stdio` (Neovim, Helix, Emacs...), `--node-ipc`
// (VS Code), or `--socket=N`.
import { createCommandLineConnection } from './connection/stdioConnection';
import { startServer } from './server';

export function startFromCommandLine(): void {
  const { connection, sendTogether } = createCommandLineConnection();
  // Bad input must never bring the server down: a stray rejection is reported and the server goes on.
  process.on('unhandledRejection', (reason) => {
    const message = `Unexpected error (the server continues): ${reason instanceof Error ? reason.message : String(reason)}`;
    try {
      connection.console.error(message);
    } catch {
      // The connection is closed: stderr is what is left, and throwing here would end the server.
      process.stderr.write(`${message}\n`);
    }
  });
  startServer(connection, { sendTogether });
  connection.listen();
}

// Entry point of dist/server.js. The transport comes from the command line, as every LSP client expects:
// `--stdio` (Neovim, Helix, Emacs...), `--node-ipc` (VS Code), or `--socket=N`.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

const connection = createConnection(ProposedFeatures.all);
startServer(connection);
connection.listen();

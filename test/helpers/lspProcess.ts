// Starts dist/server.js as a separate process over stdio, exactly as a non-VS Code editor would, and gives the test
// a JSON-RPC connection to it. Build first (`node esbuild.mjs`; test/run-all.mjs does).
// `setup` runs before the connection listens, so a test can answer the server's own requests
// (workspace/configuration, client/registerCapability, window/workDoneProgress/create) from the first message on.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  createProtocolConnection,
  InitializeRequest,
  InitializedNotification,
  ExitNotification,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  type InitializeParams,
  type InitializeResult,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';

export interface LspProcess {
  connection: ProtocolConnection;
  initializeResult: InitializeResult;
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  stop(): Promise<number | null>;
}

const serverBundle = path.resolve('dist/server.js');

export async function startLspProcess(
  params: Partial<InitializeParams> = {},
  env: NodeJS.ProcessEnv = {},
  setup?: (connection: ProtocolConnection) => void,
  /** Node options for the server process (the bench's `--cpu-prof`). */
  nodeArgs: string[] = [],
): Promise<LspProcess> {
  if (!existsSync(serverBundle)) throw new Error('dist/server.js is missing: run `node esbuild.mjs` first');
  const child = spawn(process.execPath, [...nodeArgs, serverBundle, '--stdio'], { env: { ...process.env, ...env }, stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  setup?.(connection);
  connection.listen();
  let initializeResult: InitializeResult;
  try {
    initializeResult = await connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
      workspaceFolders: null,
      ...params,
    });
  } catch (error) {
    // A failed initialize must fail the test, not leave a live server process that keeps the runner waiting.
    connection.dispose();
    child.kill();
    throw error;
  }
  await connection.sendNotification(InitializedNotification.type, {});
  return {
    connection,
    initializeResult,
    child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      const code = await exited;
      connection.dispose();
      return code;
    },
  };
}

// A language server session against the demo emulator for the "answer lost" tests (#14 item 10): faults are armed
// on the emulator, commands are sent as an editor sends them, and the emulator's request log counts what was sent
// after the fault was armed (the proof that no write went twice).
import assert from 'node:assert/strict';
import { ExecuteCommandRequest } from 'vscode-languageserver-protocol/node';
import type { ShowMessageParams } from 'vscode-languageserver-protocol/node';
import { ServiceClient } from '../../server/src/api';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import type { FaultSpec } from '../../emulator/src/http/faults';
import { serverCommand } from '../../server/src/protocol';
import type { ServerCommandArguments, ServerCommandResults, ServerCommandVerb } from '../../server/src/protocol';
import { startSession, type LspSession } from './lspSession';

export interface LostAnswerHarness {
  emulator: RunningEmulator;
  session: LspSession;
  /** The owners team's token: another caller than the server's, so checks do not eat its rate budget. */
  api: ServiceClient;
  run<V extends ServerCommandVerb>(verb: V, args: ServerCommandArguments[V]): Promise<ServerCommandResults[V]>;
  /** The command's error (fails the test if it succeeded). */
  rejection(promise: Promise<unknown>): Promise<{ message: string }>;
  /** Clears earlier faults, arms these, and starts counting requests from here. */
  inject(...faults: FaultSpec[]): void;
  /** Requests logged since the last inject with this method and path (query ignored). */
  sent(method: string, path: string): number;
  /**
   * The emulator's clock is manual, so its per-second rate windows never end by themselves: each test starts in a
   * new second (a beforeEach), or the server's own background reads and the test's commands would meet 429s.
   */
  nextSecond(): Promise<void>;
  /** The next warning shown to the user that matches. */
  nextWarning(pattern: RegExp): Promise<string>;
  close(): Promise<void>;
}

export async function startLostAnswerHarness(): Promise<LostAnswerHarness> {
  const emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  const api = new ServiceClient({ address: emulator.url, token: emulator.tokens.team });
  // A client that confirms destructive commands itself (VS Code): these tests count the requests each write sends.
  const session = await startSession({ address: emulator.url, token: emulator.tokens.owner, initializationOptions: { prompts: { confirmations: true } } }).catch(async (error: unknown) => {
    // The emulator would keep the test process alive.
    await api.close();
    await emulator.close();
    throw error;
  });
  let mark = 0;
  return {
    emulator,
    session,
    api,
    run: (verb, args) => session.connection.sendRequest(ExecuteCommandRequest.type, { command: serverCommand(verb), arguments: [args] }) as never,
    rejection: (promise) => promise.then(() => assert.fail('expected the command to fail'), (error: { message: string }) => error),
    inject(...faults) {
      emulator.control.clearFaults();
      mark = emulator.control.requests().length;
      for (const fault of faults) emulator.control.injectFault(fault);
    },
    sent: (method, path) => emulator.control.requests().slice(mark).filter((entry) => entry.method === method && entry.path.split('?')[0] === path).length,
    nextSecond: () => emulator.control.advance(1_100),
    nextWarning: async (pattern) => (await session.waitForNext<ShowMessageParams>('window/showMessage', (params) => pattern.test(params.message))).message,
    async close() {
      await session.close();
      await api.close();
      await emulator.close();
      assert.doesNotMatch(session.stderr(), new RegExp(emulator.tokens.owner));
    },
  };
}

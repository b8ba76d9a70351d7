import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Connection } from 'vscode-languageserver/node';
import { routeConsoleToClient } from '../../server/src/connection/stdioConnection';

test('console output goes to the client log through the console object modules already hold, and a closed connection does not stop later lines', () => {
  const held = console;
  const saved = { ...(console as unknown as Record<string, unknown>) };
  const logged: string[] = [];
  let closed = true;
  const connection = {
    console: {
      log: (message: string) => {
        if (closed) throw new Error('Connection is closed.');
        logged.push(message);
      },
    },
  } as unknown as Connection;
  try {
    routeConsoleToClient(connection);
    held.log('lost: the connection is closed');
    closed = false;
    held.log('after %s', 'the failure', { n: 1 });
    held.info('info too');
  } finally {
    Object.assign(console, saved);
  }
  assert.deepEqual(logged, ['after the failure { n: 1 }', 'info too']);
});

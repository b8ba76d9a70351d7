// #14 item 14 over a real LSP session: a service that accepts connections and never answers. Completion in the
// cloud block answers while the service's requests still hang (it never waits on the network), and shutdown
// answers at once, closing those requests instead of waiting out their 30 s timeout. The bounds below are failure
// bounds (well under that timeout), not speed targets: the ordering is what is asserted.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CompletionRequest, DidOpenTextDocumentNotification, ShutdownRequest } from 'vscode-languageserver-protocol/node';
import type { CompletionList } from 'vscode-languageserver-protocol/node';
import { startSession, type LspSession } from '../helpers/lspSession';

/** An HTTP "service" that reads requests and never answers; it records what arrived and which sockets closed. */
function silentService() {
  const sockets = new Set<net.Socket>();
  let requests = 0;
  let closedByClient = 0;
  const arrivals: Array<() => void> = [];
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => {
      requests++;
      for (const resolve of arrivals.splice(0)) resolve();
    });
    socket.on('close', () => {
      sockets.delete(socket);
      closedByClient++;
    });
    socket.on('error', () => undefined);
  });
  return {
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`))),
    /** Resolves when a request has arrived (at once if one already did). */
    firstRequest: () => (requests > 0 ? Promise.resolve() : new Promise<void>((resolve) => arrivals.push(resolve))),
    hanging: () => sockets.size,
    closedByClient: () => closedByClient,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not come within ${ms} ms`)), ms)));
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

describe('a service that never answers (#14 item 14)', () => {
  const service = silentService();
  let session: LspSession;

  before(async () => {
    const address = await service.listen();
    session = await startSession({ address, token: 'silent-service-token-0000' });
    // The folder's link is being looked up: that request now hangs.
    await bounded(service.firstRequest(), 15_000, 'the first request to the service');
  });
  after(async () => {
    await session.close().catch(() => undefined);
    await service.close();
  });

  test('cloud-block completion answers while the service hangs', async () => {
    const file = path.join(session.folder, 'main.tf');
    const uri = `${session.folderUri}/main.tf`;
    const text = await readFile(file, 'utf8');
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'terraform', version: 1, text } });
    const line = text.split('\n').findIndex((l) => l.includes('organization = "acme-demo"'));
    const character = text.split('\n')[line]!.indexOf('"acme-demo"') + 1;
    const list = (await bounded(
      session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line, character } }),
      10_000,
      'the completion answer',
    )) as CompletionList | null;
    assert.ok(list && Array.isArray(list.items), 'a completion list, not a failure');
    assert.equal(list.isIncomplete, true, 'names are still being read: the editor asks again');
    assert.ok(service.hanging() > 0, 'the service still had not answered when completion did');
  });

  test('shutdown answers at once and closes the hanging requests', async () => {
    assert.ok(service.hanging() > 0);
    const closedBefore = service.closedByClient();
    await bounded(session.connection.sendRequest(ShutdownRequest.type), 10_000, 'the shutdown answer');
    // The connections were closed by the shutdown (the requests' own 30 s timeout had not passed).
    await bounded(
      (async () => {
        while (service.hanging() > 0) await new Promise((resolve) => setImmediate(resolve));
      })(),
      5_000,
      'the hanging connections to close',
    );
    assert.ok(service.closedByClient() > closedBefore);
  });
});

/**
 * Contract-test harness: one emulator per test file (demo seed, manual clock), reset before each test, and
 * ServiceClients whose clock IS the emulator's — a wait in the client (rate limiter, backoff) advances the
 * emulator's time instead of sleeping, so rate windows reset and nothing waits on real timers.
 */
import { after, before, beforeEach } from 'node:test';
import { startEmulator } from '../../../emulator/src/index';
import type { RunningEmulator, TokenRole } from '../../../emulator/src/index';
import { ServiceClient } from '../../../server/src/api/index';
import type { Clock, ServiceClientOptions } from '../../../server/src/api/index';
import { CancelledError } from '../../../server/src/api/errors';

export interface Harness {
  emulator(): RunningEmulator;
  /** A client with the token of `role` (closed after the test). */
  client(role?: TokenRole, options?: Partial<ServiceClientOptions>): ServiceClient;
  /** The emulator's clock as a client Clock. */
  clock(): Clock;
  /** Advances emulator time in steps until `done` is true; fails after `maxSteps` with what it was waiting for. */
  advanceUntil(what: string, done: () => Promise<boolean>, stepMs?: number, maxSteps?: number): Promise<void>;
  /** Requests the emulator logged since the test began. */
  requests(): ReturnType<RunningEmulator['control']['requests']>;
}

export function useEmulator(options: { edition?: 'hosted' | 'enterprise'; seed?: 'demo' | 'empty' } = {}): Harness {
  let emulator: RunningEmulator | undefined;
  let clients: ServiceClient[] = [];

  before(async () => {
    emulator = await startEmulator({ seed: options.seed ?? 'demo', clock: 'manual', edition: options.edition });
  });
  beforeEach(async () => {
    await Promise.all(clients.map((client) => client.close()));
    clients = [];
    await emulator!.control.reset();
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await emulator?.close();
  });

  const clock = (): Clock => ({
    now: () => emulator!.control.now().getTime(),
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new CancelledError('waiting before a request');
      await emulator!.control.advance(Math.max(0, Math.ceil(ms)));
    },
  });

  return {
    emulator: () => emulator!,
    clock,
    client(role = 'owner', overrides = {}) {
      const client = new ServiceClient({
        address: emulator!.url,
        token: emulator!.tokens[role],
        clock: clock(),
        timeoutMs: 5_000,
        ...overrides,
        retry: { random: () => 0, ...overrides.retry },
      });
      clients.push(client);
      return client;
    },
    async advanceUntil(what, done, stepMs = 500, maxSteps = 400) {
      for (let step = 0; step < maxSteps; step++) {
        if (await done()) return;
        await emulator!.control.advance(stepMs);
      }
      throw new Error(`Still waiting for ${what} after ${(stepMs * maxSteps) / 1000} s of emulator time.`);
    },
    requests: () => emulator!.control.requests(),
  };
}

/** The id of a seeded workspace of acme-demo. */
export async function workspaceId(client: ServiceClient, name: string, organization = 'acme-demo'): Promise<string> {
  return (await client.workspaces.getByName(organization, name)).workspace.id;
}

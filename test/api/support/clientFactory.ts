/** A ServiceClient for unit tests: fixed token, virtual clock, jitter-free retries. */
import { ServiceClient } from '../../../server/src/api/client';
import type { ServiceClientOptions } from '../../../server/src/api/client';
import { VirtualClock } from './virtualClock';

export const testToken = 'secret-token.atlasv1.do-not-leak-0123456789';

export function testClient(address: string, overrides: Partial<ServiceClientOptions> = {}): { client: ServiceClient; clock: VirtualClock } {
  const clock = overrides.clock instanceof VirtualClock ? overrides.clock : new VirtualClock();
  const client = new ServiceClient({
    address,
    token: testToken,
    clock,
    timeoutMs: 2_000,
    ...overrides,
    retry: { random: () => 0, ...overrides.retry },
  });
  return { client, clock };
}

// A 404 from deleting the organization token means "there is none" or "you may not": the message names which.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { ServiceClient } from '../../server/src/api';
import { whyNoTokenToDelete } from '../../server/src/commands/workspaceCommands';

describe('why an organization token could not be deleted', () => {
  let emulator: RunningEmulator;
  const clients: ServiceClient[] = [];
  const client = (token: string) => {
    const made = new ServiceClient({ address: emulator.url, token });
    clients.push(made);
    return made;
  };
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await emulator.close();
  });

  test('an owner, and no token: there is none (not a permission problem)', async () => {
    const owner = client(emulator.tokens.owner);
    await owner.organization.deleteToken('acme-demo').catch(() => undefined);
    assert.equal(await whyNoTokenToDelete(owner, 'acme-demo'), 'acme-demo has no organization token to delete: it was never generated or is already deleted.');
  });

  test('a reader: may not, and who may', async () => {
    assert.match(await whyNoTokenToDelete(client(emulator.tokens.reader), 'acme-demo'), /This token may not delete the organization token of acme-demo: only the owners team/);
  });

  test('an organization nobody can see: not found', async () => {
    assert.match(await whyNoTokenToDelete(client(emulator.tokens.owner), 'no-such-org'), /Organization no-such-org was not found/);
  });
});

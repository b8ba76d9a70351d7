import assert from 'node:assert/strict';
import { test } from 'node:test';
import { accountLabel, parseStoredIdentity, signedInMessage } from '../../../client/src/auth/accountLabel';

test('an account reads "<name> @ <host>", with the kind of a token that is not a user\'s', () => {
  assert.equal(accountLabel('app.terraform.io', { kind: 'user', name: 'olivia-owner', id: 'user-1' }), 'olivia-owner @ app.terraform.io');
  assert.equal(accountLabel('tfe.example.com', { kind: 'team', name: 'owners', id: 'team-1' }), 'owners @ tfe.example.com (team token)');
  assert.equal(accountLabel('tfe.example.com', { kind: 'organization', name: 'acme', id: 'acme' }), 'acme @ tfe.example.com (organization token)');
  assert.equal(accountLabel('tfe.example.com', undefined), 'tfe.example.com');
});

test('the sign-in message names host, account and token kind', () => {
  assert.equal(signedInMessage('localhost:8443', { kind: 'team', name: 'owners', id: 'team-1' }), 'Signed in to localhost:8443 as owners (team token).');
  assert.equal(signedInMessage('app.terraform.io', { kind: 'user', name: 'olivia', id: 'user-1' }), 'Signed in to app.terraform.io as olivia.');
});

test('a malformed stored identity is dropped, an unexpected kind reads as unknown', () => {
  assert.equal(parseStoredIdentity('olivia'), undefined);
  assert.equal(parseStoredIdentity({ kind: 'user', name: 7, id: 'x' }), undefined);
  assert.deepEqual(parseStoredIdentity({ kind: 'robot', name: 'r', id: 'x', token: 'never-kept' }), { kind: 'unknown', name: 'r', id: 'x' });
});

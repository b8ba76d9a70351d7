// Sign Out tells the truth about the tokens the extension cannot remove: those of TF_TOKEN_<host> and of the
// credentials file `terraform login` writes, which the language server signs in with too.
import './fakes/installFakeVscode';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { externalToken } from '../../client/src/auth/externalTokens';
import type { ClientDeps } from '../../client/src/clientDeps';
import { signOut } from '../../client/src/signIn';
import { prompts } from '../../client/src/userPrompts';

const host = 'app.terraform.io';
const secret = 'abc123.atlasv1.not-a-real-token';

/** Credentials as the extension stores them: the hosts it holds a token for, and the deletes asked. */
function storedCredentials(hosts: string[]) {
  const deleted: string[] = [];
  const credentials = { hosts: () => hosts.filter((known) => !deleted.includes(known)), delete: async (name: string) => void deleted.push(name) };
  return { deps: { credentials, address: () => `https://${host}` } as unknown as Pick<ClientDeps, 'credentials' | 'address'>, deleted };
}

describe('Sign Out', () => {
  const said: Array<{ level: string; text: string }> = [];
  const original = { ...prompts };
  let credentialsFile: string;
  beforeEach(() => {
    said.length = 0;
    prompts.information = async (text: string) => void said.push({ level: 'information', text });
    prompts.warning = async (text: string) => void said.push({ level: 'warning', text });
    credentialsFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'signout-')), 'credentials.tfrc.json');
    writeFileSync(credentialsFile, JSON.stringify({ credentials: { [host]: { token: secret } } }));
  });
  afterEach(() => Object.assign(prompts, original));
  const fromFile = (name: string) => externalToken(name, {}, credentialsFile);

  test('a token of `terraform login` alone: never "not signed in", but where it is and `terraform logout <host>`', async () => {
    const { deps, deleted } = storedCredentials([]);
    await signOut(deps, undefined, fromFile);
    assert.deepEqual(deleted, []);
    assert.equal(said.length, 1);
    assert.doesNotMatch(said[0]!.text, /not signed in|signed out of/);
    assert.match(said[0]!.text, new RegExp(`signed in to ${host} with the token from the credentials file of \`terraform login\``));
    assert.match(said[0]!.text, new RegExp(`run \`terraform logout ${host}\``));
    assert.ok(said[0]!.text.includes(credentialsFile));
    assert.ok(!said[0]!.text.includes(secret), 'the token itself is never shown');
  });

  test('a stored token over a `terraform login` one: the stored one goes, and the message says the other remains', async () => {
    const { deps, deleted } = storedCredentials([host]);
    await signOut(deps, undefined, fromFile);
    assert.deepEqual(deleted, [host]);
    assert.doesNotMatch(said[0]!.text, /signed out of/);
    assert.match(said[0]!.text, /removed the token HCP Terraform stored for app\.terraform\.io, but you are still signed in there/);
    assert.match(said[0]!.text, /terraform logout app\.terraform\.io/);
  });

  test('a TF_TOKEN_<host> variable: names the variable (never its value) and how to remove it', async () => {
    const { deps } = storedCredentials([]);
    await signOut(deps, undefined, (name) => externalToken(name, { TF_TOKEN_app_terraform_io: secret }, credentialsFile));
    assert.match(said[0]!.text, /the environment variable TF_TOKEN_app_terraform_io/);
    assert.match(said[0]!.text, /remove TF_TOKEN_app_terraform_io from the environment VS Code starts with/);
    assert.ok(!said[0]!.text.includes(secret));
  });

  test('only a stored token: signed out; no token anywhere: not signed in', async () => {
    const nowhere = () => undefined;
    const stored = storedCredentials([host]);
    await signOut(stored.deps, undefined, nowhere);
    assert.deepEqual(stored.deleted, [host]);
    assert.deepEqual(said, [{ level: 'information', text: `HCP Terraform: signed out of ${host}.` }]);
    said.length = 0;
    await signOut(storedCredentials([]).deps, undefined, nowhere);
    assert.deepEqual(said, [{ level: 'information', text: 'HCP Terraform: you are not signed in to any host.' }]);
  });
});

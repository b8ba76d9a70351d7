import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { credentialsFilePath, credentialsFileToken, environmentToken, tokenVariableName } from '../../../client/src/auth/tokenSources';

describe('TF_TOKEN_<host> names', () => {
  test('encode dots as _ and hyphens as __, in lower case, as Terraform does', () => {
    assert.equal(tokenVariableName('app.terraform.io'), 'TF_TOKEN_app_terraform_io');
    assert.equal(tokenVariableName('My-TFE.example.com'), 'TF_TOKEN_my__tfe_example_com');
  });

  test('keep the port, as Terraform keeps it in the host it looks up', () => {
    assert.equal(tokenVariableName('127.0.0.1:8443'), 'TF_TOKEN_127_0_0_1:8443');
  });

  test('find the token of the host, and not of a look-alike host', () => {
    const environment = { TF_TOKEN_app_terraform_io: ' tok-app ', TF_TOKEN_my__tfe_example_com: 'tok-tfe', TF_TOKEN_my_tfe_example_com: 'tok-wrong' };
    assert.deepEqual(environmentToken('app.terraform.io', environment), { token: 'tok-app', from: 'TF_TOKEN_app_terraform_io' });
    assert.deepEqual(environmentToken('my-tfe.example.com', environment), { token: 'tok-tfe', from: 'TF_TOKEN_my__tfe_example_com' });
    assert.equal(environmentToken('other.example.com', environment), undefined);
  });

  test('find a host with a port only under its name with the port; ignore empty values', () => {
    assert.equal(environmentToken('127.0.0.1:41234', { TF_TOKEN_127_0_0_1: 'tok-any-port' }), undefined);
    assert.deepEqual(environmentToken('127.0.0.1:41234', { 'TF_TOKEN_127_0_0_1:41234': 'tok-local' }), { token: 'tok-local', from: 'TF_TOKEN_127_0_0_1:41234' });
    assert.equal(environmentToken('app.terraform.io', { TF_TOKEN_app_terraform_io: '   ' }), undefined);
  });
});

describe('the terraform login credentials file', () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hcp-credentials-'));
  after(() => rmSync(home, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    const file = path.join(home, name);
    writeFileSync(file, text);
    return file;
  };

  test('lives in ~/.terraform.d, or %APPDATA%\\terraform.d on Windows', () => {
    assert.equal(credentialsFilePath({ HOME: '/home/u' }, 'linux'), path.join('/home/u', '.terraform.d', 'credentials.tfrc.json'));
    assert.equal(credentialsFilePath({ HOME: '/home/u', APPDATA: 'C:\\AppData' }, 'win32'), path.join('C:\\AppData', 'terraform.d', 'credentials.tfrc.json'));
  });

  test('gives credentials["<host>"].token, host names compared as Terraform compares them', () => {
    const file = write('good.json', JSON.stringify({ credentials: { 'App.Terraform.IO': { token: 'tok-file' }, '127.0.0.1:8443': { token: 'tok-port' } } }));
    assert.deepEqual(credentialsFileToken('app.terraform.io', file), { kind: 'found', found: { token: 'tok-file', from: file } });
    assert.deepEqual(credentialsFileToken('127.0.0.1:8443', file), { kind: 'found', found: { token: 'tok-port', from: file } });
    assert.deepEqual(credentialsFileToken('127.0.0.1:9999', file), { kind: 'none' });
  });

  test('a missing file or one without that host is simply no token', () => {
    assert.deepEqual(credentialsFileToken('app.terraform.io', path.join(home, 'absent.json')), { kind: 'none' });
    const file = write('other.json', JSON.stringify({ credentials: { 'app.terraform.io': { token: 42 } } }));
    assert.deepEqual(credentialsFileToken('app.terraform.io', file), { kind: 'none' });
    assert.deepEqual(credentialsFileToken('app.terraform.io', write('empty.json', '{}')), { kind: 'none' });
  });

  test('invalid JSON is a problem that names the file and the fix, never its content', () => {
    const file = write('broken.json', '{"credentials": {"app.terraform.io": {"token": "secret-abc.atlasv1.xyz"');
    const result = credentialsFileToken('app.terraform.io', file);
    assert.equal(result.kind, 'problem');
    assert.ok(result.kind === 'problem' && result.message.includes(file) && result.message.includes('terraform login'));
    assert.ok(result.kind === 'problem' && !result.message.includes('secret-abc'));
  });

  test('an unreadable file is a problem, not an exception', { skip: process.getuid?.() === 0 ? 'root reads any file' : false }, () => {
    const dir = path.join(home, 'locked');
    mkdirSync(dir);
    const file = path.join(dir, 'credentials.tfrc.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o000);
    const result = credentialsFileToken('app.terraform.io', file);
    assert.deepEqual(result, { kind: 'problem', message: `Cannot read ${file} (permission denied).` });
  });
});

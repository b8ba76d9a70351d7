// Token resolution, first found wins: client → TF_TOKEN_<host> → credentials.tfrc.json; each token only for its host.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { comparableHost, decodeTokenVariableHost, TokenResolver, tokenVariableName } from '../../server/src/auth/tokens';

describe('TF_TOKEN_ variable names (Terraform encoding)', () => {
  test('dots become underscores and hyphens double underscores', () => {
    assert.equal(tokenVariableName('app.terraform.io'), 'TF_TOKEN_app_terraform_io');
    assert.equal(tokenVariableName('my-tfe.example-corp.com'), 'TF_TOKEN_my__tfe_example__corp_com');
    assert.equal(decodeTokenVariableHost('TF_TOKEN_my__tfe_example__corp_com'), 'my-tfe.example-corp.com');
  });

  test('non-ASCII host names are compared in punycode, case-insensitively', () => {
    assert.equal(comparableHost('TFE.Bücher.example'), 'tfe.xn--bcher-kva.example');
    assert.equal(tokenVariableName('tfe.bücher.example'), 'TF_TOKEN_tfe_xn____bcher__kva_example');
    assert.equal(decodeTokenVariableHost(tokenVariableName('tfe.bücher.example')), 'tfe.xn--bcher-kva.example');
  });

  test('a port stays in the name, as Terraform keeps it in the host it compares (443 is no port)', () => {
    assert.equal(tokenVariableName('localhost:8443'), 'TF_TOKEN_localhost:8443');
    assert.equal(tokenVariableName('tfe.example.com:443'), 'TF_TOKEN_tfe_example_com');
    assert.equal(decodeTokenVariableHost('TF_TOKEN_127_0_0_1:8080'), '127.0.0.1:8080');
    assert.equal(decodeTokenVariableHost('TF_TOKEN_tfe_example_com:0443'), 'tfe.example.com');
    assert.equal(decodeTokenVariableHost('TF_TOKEN_localhost:99999'), undefined, 'a port above 65535');
    assert.equal(decodeTokenVariableHost('TF_TOKEN_localhost:http'), undefined, 'a port that is not a number');
  });

  // The cases of Terraform's own tests (internal/command/cliconfig/credentials_test.go) and its doc comment.
  test("Terraform's accepted spellings: dots as is, punycode with hyphens, UTF-8, any case", () => {
    assert.equal(decodeTokenVariableHost('TF_TOKEN_configured_example_com'), 'configured.example.com');
    assert.equal(decodeTokenVariableHost('TF_TOKEN_configured.example.com'), 'configured.example.com');
    assert.equal(decodeTokenVariableHost('TF_TOKEN_CONFIGUREDUPPERCASE_EXAMPLE_COM'), 'configureduppercase.example.com');
    assert.equal(decodeTokenVariableHost('TF_TOKEN_env_xn--eckwd4c7cu47r2wf_com'), comparableHost('env.ドメイン名例.com'));
    assert.equal(decodeTokenVariableHost('TF_TOKEN_env_xn____caf__dma_fr'), 'env.xn--caf-dma.fr');
    for (const name of ['TF_TOKEN_xn____caf__dma_fr', 'TF_TOKEN_xn--caf-dma_fr', 'TF_TOKEN_xn--caf-dma.fr', 'TF_TOKEN_café_fr']) {
      assert.equal(decodeTokenVariableHost(name), 'xn--caf-dma.fr', name);
    }
    // ForDisplay maps transitionally (ß → ss) before the comparison form is taken.
    assert.equal(decodeTokenVariableHost('TF_TOKEN_straße_de'), 'strasse.de');
  });

  test('names that are no host are ignored, as Terraform ignores them', () => {
    assert.equal(decodeTokenVariableHost('TF_TOKEN_'), undefined);
    assert.equal(decodeTokenVariableHost('TF_TOKEN_a__'), 'a-', 'a trailing hyphen is still a name IDNA takes');
    assert.equal(decodeTokenVariableHost('TF_TOKEN_example__com_'), undefined, 'an empty label');
    assert.equal(decodeTokenVariableHost('TF_TOKEN_example___com'), 'example-.com', 'three underscores: "-" then "."');
    assert.equal(decodeTokenVariableHost('TF_TOKEN__example_com'), undefined, 'a leading empty label');
  });
});

describe('TokenResolver', () => {
  const withHome = async (credentials: unknown, run: (home: string) => void | Promise<void>) => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'tokens-'));
    try {
      if (credentials !== undefined) {
        await mkdir(path.join(home, '.terraform.d'));
        await writeFile(path.join(home, '.terraform.d', 'credentials.tfrc.json'), typeof credentials === 'string' ? credentials : JSON.stringify(credentials));
      }
      await run(home);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  };

  test('the client token wins over the environment, which wins over the credentials file', async () => {
    await withHome({ credentials: { 'app.terraform.io': { token: 'from-file' } } }, (home) => {
      const resolver = new TokenResolver({ environment: { TF_TOKEN_app_terraform_io: 'from-env' }, homeDirectory: home });
      assert.deepEqual(resolver.resolve('app.terraform.io'), { token: 'from-env', source: 'environment', from: 'TF_TOKEN_app_terraform_io' });
      resolver.setClientToken('APP.terraform.io', 'from-client');
      assert.deepEqual(resolver.resolve('app.terraform.io'), { token: 'from-client', source: 'client' });
      resolver.setClientToken('app.terraform.io', null);
      assert.equal(resolver.resolve('app.terraform.io')?.source, 'environment');
      const fileOnly = new TokenResolver({ environment: {}, homeDirectory: home });
      assert.equal(fileOnly.resolve('app.terraform.io')?.token, 'from-file');
      assert.equal(fileOnly.resolve('app.terraform.io')?.source, 'credentials-file');
    });
  });

  test('a token is only returned for the host it belongs to', async () => {
    await withHome({ credentials: { 'tfe.example.com': { token: 'tfe-token' }, 'localhost:8443': { token: 'local-token' } } }, (home) => {
      const resolver = new TokenResolver({ environment: { TF_TOKEN_other_example_com: 'other' }, homeDirectory: home });
      resolver.setClientToken('app.terraform.io', 'hcp-token');
      assert.equal(resolver.resolve('tfe.example.com')?.token, 'tfe-token');
      assert.equal(resolver.resolve('localhost:8443')?.token, 'local-token');
      assert.equal(resolver.resolve('localhost:9999'), undefined);
      assert.equal(resolver.resolve('other.example.com')?.token, 'other');
      assert.equal(resolver.resolve('unknown.example.com'), undefined);
    });
  });

  test("an environment token is for its host's port only: TF_TOKEN_<host> is not sent to <host>:<port>", () => {
    const resolver = new TokenResolver({ environment: { TF_TOKEN_127_0_0_1: 'any-port', 'TF_TOKEN_127_0_0_1:43123': 'emulator' }, homeDirectory: '/nonexistent' });
    assert.equal(resolver.resolve('127.0.0.1:43123')?.token, 'emulator');
    assert.equal(resolver.resolve('127.0.0.1:9999'), undefined);
    assert.equal(resolver.resolve('127.0.0.1')?.token, 'any-port');
    assert.equal(resolver.resolve('127.0.0.1:443')?.token, 'any-port', '443 is the default port: no port');
  });

  test('a malformed credentials file is reported once, without its content, and ignored', async () => {
    await withHome('{ "credentials": { "app.terraform.io": { "token": "secret-in-broken-file"', (home) => {
      const warnings: string[] = [];
      const resolver = new TokenResolver({ environment: {}, homeDirectory: home, onWarning: (message) => warnings.push(message) });
      assert.equal(resolver.resolve('app.terraform.io'), undefined);
      assert.equal(resolver.resolve('app.terraform.io'), undefined);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /not valid JSON.*terraform login/);
      assert.doesNotMatch(warnings[0]!, /secret-in-broken-file/);
    });
  });

  test('a credentials file of another shape is told once, with the shape to write, never its content; a fixed one is fine', async () => {
    await withHome({ credentials: ['secret-in-a-list'] }, async (home) => {
      const warnings: string[] = [];
      const resolver = new TokenResolver({ environment: {}, homeDirectory: home, onWarning: (message) => warnings.push(message) });
      assert.equal(resolver.resolve('app.terraform.io'), undefined);
      assert.equal(resolver.resolve('app.terraform.io'), undefined);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /is not shaped as `terraform login` writes it \(\{"credentials": \{"<host>": \{"token": "<token>"\}\}\}\), so the tokens .* are not used\. Fix it to that shape or delete the file/);
      assert.doesNotMatch(warnings[0]!, /secret-in-a-list/);
      assert.match(resolver.credentialsFileProblem() ?? '', /credentials\.tfrc\.json is not shaped as/);
      await writeFile(path.join(home, '.terraform.d', 'credentials.tfrc.json'), JSON.stringify({ credentials: { 'app.terraform.io': { token: 'good' } } }) + '\n');
      assert.equal(resolver.resolve('app.terraform.io')?.token, 'good');
      assert.equal(resolver.credentialsFileProblem(), undefined);
    });
  });

  test('no credentials file is simply no token', () => {
    const resolver = new TokenResolver({ environment: {}, homeDirectory: '/nonexistent-home' });
    assert.equal(resolver.resolve('app.terraform.io'), undefined);
  });

  test('the first usable TF_TOKEN_ variable for a host wins: blank values are skipped, values trimmed', () => {
    const environment = { TF_TOKEN_example_com: '   ', TF_TOKEN_EXAMPLE_COM: ' second ', 'TF_TOKEN_example.com': 'third' };
    const resolver = new TokenResolver({ environment, homeDirectory: '/nonexistent' });
    assert.deepEqual(resolver.resolve('example.com'), { token: 'second', source: 'environment', from: 'TF_TOKEN_EXAMPLE_COM' });
  });
});

// resolve() runs on every isSignedIn, many times a second while indexing and typing: it must not enumerate the
// environment or read the credentials file each time, yet still see a `terraform login` done while the server runs.
describe('TokenResolver: cheap to call again', () => {
  const credentialsFile = (home: string) => path.join(home, '.terraform.d', 'credentials.tfrc.json');
  const writeCredentials = (home: string, token: string, mtime: Date) => {
    writeFileSync(credentialsFile(home), JSON.stringify({ credentials: { 'app.terraform.io': { token } } }));
    utimesSync(credentialsFile(home), mtime, mtime); // so the identity differs even within one mtime tick
  };
  const withEmptyHome = async (run: (home: string) => void | Promise<void>) => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'tokens-'));
    try {
      await mkdir(path.join(home, '.terraform.d'));
      await run(home);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  };

  test('the environment is enumerated once, not on every resolve', () => {
    let enumerations = 0;
    const environment = new Proxy({ TF_TOKEN_tfe_example_com: 'tfe-token', HOME: '/nonexistent' } as Record<string, string | undefined>, {
      ownKeys(target) {
        enumerations += 1;
        return Reflect.ownKeys(target);
      },
    });
    const resolver = new TokenResolver({ environment, homeDirectory: '/nonexistent' });
    for (let i = 0; i < 5; i += 1) {
      assert.equal(resolver.resolve('tfe.example.com')?.token, 'tfe-token');
      assert.equal(resolver.resolve('app.terraform.io'), undefined);
    }
    assert.ok(enumerations <= 1, `enumerated ${enumerations} times`);
  });

  test('a `terraform login` while the server runs (the file rewritten) is picked up on the next resolve', async () => {
    await withEmptyHome((home) => {
      const resolver = new TokenResolver({ environment: {}, homeDirectory: home });
      assert.equal(resolver.resolve('app.terraform.io'), undefined, 'no file yet');
      writeCredentials(home, 'first-token', new Date(2024, 0, 1));
      assert.deepEqual(resolver.resolve('app.terraform.io'), { token: 'first-token', source: 'credentials-file', from: credentialsFile(home) });
      writeCredentials(home, 'second-token', new Date(2024, 0, 2));
      assert.equal(resolver.resolve('app.terraform.io')?.token, 'second-token');
      rmSync(credentialsFile(home));
      assert.equal(resolver.resolve('app.terraform.io'), undefined, 'the file went away (terraform logout)');
    });
  });

  test('an unchanged credentials file is not read again', async () => {
    await withEmptyHome((home) => {
      writeCredentials(home, 'first-token', new Date(2024, 0, 1));
      let reads = 0;
      let stats = 0;
      const resolver = new TokenResolver({
        environment: {},
        homeDirectory: home,
        readFile: (file) => ((reads += 1), readFileSync(file, 'utf8')),
        statFile: (file) => ((stats += 1), statSync(file)),
      });
      for (let i = 0; i < 5; i += 1) assert.equal(resolver.resolve('app.terraform.io')?.token, 'first-token');
      assert.equal(reads, 1);
      assert.equal(stats, 5, 'only its identity is looked at');
      writeCredentials(home, 'second-token-longer', new Date(2024, 0, 2));
      assert.equal(resolver.resolve('app.terraform.io')?.token, 'second-token-longer');
      assert.equal(reads, 2);
    });
  });

  test('an injected readFile without statFile is read every time, as before', () => {
    let reads = 0;
    const readFile = () => ((reads += 1), JSON.stringify({ credentials: { 'app.terraform.io': { token: 'faked' } } }));
    const resolver = new TokenResolver({ environment: {}, homeDirectory: '/nonexistent', readFile });
    assert.equal(resolver.resolve('app.terraform.io')?.token, 'faked');
    assert.equal(resolver.resolve('app.terraform.io')?.token, 'faked');
    assert.equal(reads, 2);
  });

  test('an unreadable file is warned about once, and read again once it can be (a chmod keeps mtime and size)', () => {
    let readable = false;
    const warnings: string[] = [];
    const resolver = new TokenResolver({
      environment: {},
      homeDirectory: '/home/someone',
      statFile: () => ({ mtimeMs: 1, size: 80, ino: 7 }),
      readFile: () => {
        if (!readable) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        return JSON.stringify({ credentials: { 'app.terraform.io': { token: 'secret-token' } } });
      },
      onWarning: (message) => warnings.push(message),
    });
    assert.equal(resolver.resolve('app.terraform.io'), undefined);
    assert.equal(resolver.resolve('app.terraform.io'), undefined);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /cannot be read \(.*permission denied/);
    readable = true;
    assert.equal(resolver.resolve('app.terraform.io')?.token, 'secret-token');
    assert.equal(warnings.length, 1);
    assert.doesNotMatch(warnings.join('\n'), /secret-token/);
  });
});

// A self-signed certificate for 127.0.0.1 and localhost, made at start with the openssl command (the Terraform CLI
// only speaks https, and a client trusts this certificate as its own CA). Test tooling only: never shipped.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Certificate {
  key: string;
  /** PEM; self-signed, so it is also the CA a client trusts. */
  cert: string;
}

export function selfSignedCertificate(): Certificate {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hcp-emulator-tls-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '30', '-subj', '/CN=HCP Terraform emulator',
        '-addext', 'subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost', '-addext', 'basicConstraints=critical,CA:TRUE', '-keyout', key, '-out', cert],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 20_000 },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(missing ? 'TLS needs the openssl command (apt-get install -y openssl).' : `openssl could not make a certificate: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

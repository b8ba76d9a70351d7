// The certificate authorities a connection to the service trusts: Node's own roots, the file named by
// NODE_EXTRA_CA_CERTS (which Node applies only to its default store, so it is added again here), and the private CA
// of `hcpTerraform.tls.caFile` (Terraform Enterprise behind an internal CA, or the emulator's --tls certificate).
// Never a switch that turns verification off.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';

/** undefined = Node's defaults (no private CA configured). */
export function trustedCertificates(caFile: string | undefined, environment: Readonly<Record<string, string | undefined>> = process.env): string[] | undefined {
  if (!caFile) return undefined;
  const extra = environment.NODE_EXTRA_CA_CERTS ? readPem(environment.NODE_EXTRA_CA_CERTS, 'NODE_EXTRA_CA_CERTS') : [];
  return [...rootCertificates, ...extra, ...readPem(caFile, 'hcpTerraform.tls.caFile')];
}

function readPem(file: string, what: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`${what} names ${file}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}): fix the path or clear the setting.`);
  }
  const certificates = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (certificates.length === 0) throw new Error(`${what} names ${file}, which holds no PEM certificate (-----BEGIN CERTIFICATE-----).`);
  return certificates;
}

// CLI entry point (dist/emulator.js): starts the emulator, prints its URL and seeded tokens, optionally writes
// them to an --info file for scripts, and shuts down cleanly on SIGINT/SIGTERM.
import { chmod, writeFile } from 'node:fs/promises';
import { parseCli } from './cli';
import { startEmulator } from './index';
import { fixedTokens } from './seeds/tokens';

async function main(): Promise<void> {
  let cli;
  try {
    cli = parseCli(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  }
  const emulator = await startEmulator({ ...cli.emulator, ...(cli.fixedTokens ? { tokens: fixedTokens } : {}) });
  console.log(`HCP Terraform emulator listening on ${emulator.url} (API base ${emulator.url}/api/v2)`);
  console.log(`organization: ${emulator.organization}`);
  console.log('emulator tokens, not real secrets:');
  for (const [role, token] of Object.entries(emulator.tokens)) console.log(`  ${role.padEnd(12)} ${token}`);
  if (cli.infoFile) {
    // With --tls, the certificate goes next to the info file, so a client (NODE_EXTRA_CA_CERTS, SSL_CERT_FILE,
    // hcpTerraform.tls.caFile) can trust it.
    const caFile = emulator.caPem ? cli.infoFile.replace(/(\.json)?$/, '.ca.pem') : undefined;
    if (caFile && emulator.caPem) await writeFile(caFile, emulator.caPem, { mode: 0o644 });
    const info = { url: emulator.url, organization: emulator.organization, tokens: emulator.tokens, ...(caFile ? { caFile } : {}) };
    await writeFile(cli.infoFile, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
    // writeFile's mode applies only to a new file: an existing one keeps its permissions, and this one holds tokens.
    await chmod(cli.infoFile, 0o600);
    console.log(`wrote ${cli.infoFile}`);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: shutting down`);
    emulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`The emulator failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

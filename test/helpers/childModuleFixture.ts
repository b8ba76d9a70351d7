// The demo folder with a child module (`modules/net`, which needs `cidr`) that main.tf calls and gives `cidr`, with
// the hcpTerraform.workspace setting naming demo-app: what the child-module link tests start the server on.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunningEmulator } from '../../emulator/src/index';
import { startSession, type LspSession } from './lspSession';

/** modules/net/main.tf: a variable without a default, used by a resource. */
export const netText = 'variable "cidr" {\n  type = string\n}\n\nresource "terraform_data" "vpc" {\n  input = var.cidr\n}\n';

export function startChildModuleSession(emulator: RunningEmulator): Promise<LspSession> {
  return startSession({
    address: emulator.url,
    token: emulator.tokens.owner,
    settings: { workspace: { organization: 'acme-demo', name: 'demo-app' } },
    prepare: async (folder) => {
      await mkdir(path.join(folder, 'modules', 'net'), { recursive: true });
      await writeFile(path.join(folder, 'modules', 'net', 'main.tf'), netText);
      const main = path.join(folder, 'main.tf');
      await writeFile(main, `${await readFile(main, 'utf8')}\nmodule "net" {\n  source = "./modules/net"\n  cidr   = "10.0.0.0/16"\n}\n`);
    },
  });
}

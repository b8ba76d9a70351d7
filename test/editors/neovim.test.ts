// The README's "Other editors" section, proven: Neovim (`nvim --headless`, Debian's 0.7) runs EXACTLY the README's
// init.lua block against the emulator, with the token where the README says a user puts it (TF_TOKEN_<host>), and
// gets signed in and sees the server's diagnostics. Skipped where nvim is not installed (.ci/run installs it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { editorEnvironment, editorSandbox, runEditorProbe } from '../helpers/editorProbe';

const hasNeovim = spawnSync('nvim', ['--version'], { stdio: 'ignore' }).status === 0;

/** The lua block right after the README's `neovim-config` marker. */
async function readmeNeovimConfig(): Promise<string> {
  const readme = await readFile('README.md', 'utf8');
  const marker = readme.indexOf('<!-- neovim-config');
  assert.ok(marker >= 0, 'the README has no neovim-config marker');
  const match = /```lua\n([\s\S]*?)```/.exec(readme.slice(marker));
  assert.ok(match, 'no lua block after the neovim-config marker');
  return match[1]!;
}

// Waits (bounded, on the condition) for the server's diagnostics and serverStatus, writes what it saw as JSON, quits.
const probe = `
local out = assert(os.getenv('PROBE_OUT'))
local function status()
  local client = vim.lsp.get_active_clients()[1]
  if not client then return nil end
  local response = client.request_sync('hcpTerraform/serverStatus', vim.NIL, 5000, vim.api.nvim_get_current_buf())
  return response and response.result
end
local seen = vim.wait(60000, function()
  for _, d in ipairs(vim.diagnostic.get()) do
    if d.source == 'hcp-terraform' and d.code == 'missing-value' then return true end
  end
  return false
end, 50)
local diagnostics = {}
for _, d in ipairs(vim.diagnostic.get()) do
  table.insert(diagnostics, { file = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(d.bufnr), ':t'), source = d.source, code = d.code, message = d.message })
end
local file = io.open(out, 'w')
file:write(vim.fn.json_encode({ seen = seen, status = status(), diagnostics = diagnostics, clients = #vim.lsp.get_active_clients() }))
file:close()
vim.cmd('qall!')
`;

describe('Neovim with the README configuration', { skip: hasNeovim ? false : 'nvim is not installed (apt-get install -y neovim)' }, () => {
  const sandbox = editorSandbox('hcp-nvim-');

  test('signs in from TF_TOKEN_<host> and shows the diagnostics that need the workspace', async () => {
    const { emulator, base } = sandbox;
    const folder = path.join(base, 'demo-app');
    await cp(path.resolve('test/fixtures/demo-app'), folder, { recursive: true });
    const init = path.join(base, 'init.lua');
    await writeFile(init, await readmeNeovimConfig());
    const probeFile = path.join(base, 'probe.lua');
    await writeFile(probeFile, probe);
    const out = path.join(base, 'probe.json');
    const env = editorEnvironment(base, emulator, {
      XDG_CONFIG_HOME: path.join(base, 'config'),
      XDG_DATA_HOME: path.join(base, 'data'),
      XDG_STATE_HOME: path.join(base, 'state'),
      PROBE_OUT: out,
    });
    const { result, output, code } = await runEditorProbe<{
      seen: boolean;
      status: { signedIn: boolean; address: string } | null;
      diagnostics: Array<{ file: string; source: string; code: string; message: string }>;
      clients: number;
    }>('nvim', ['--headless', '-n', '-i', 'NONE', '-u', init, 'variables.tf', '-c', `luafile ${probeFile}`], folder, env, out);
    assert.ok(result, `nvim wrote nothing (exit ${code}): ${output}`);
    assert.equal(result.clients, 1, 'the README config did not start the server');
    assert.deepEqual(result.status && { signedIn: result.status.signedIn, address: result.status.address }, { signedIn: true, address: emulator.url });
    assert.ok(result.seen, `no missing-value diagnostic: ${JSON.stringify(result.diagnostics)}`);
    const missing = result.diagnostics.find((d) => d.code === 'missing-value');
    assert.equal(missing?.source, 'hcp-terraform');
    assert.match(missing?.message ?? '', /environment/);
    assert.doesNotMatch(output, new RegExp(emulator.tokens.member), 'the token appears in nvim output');
  });
});

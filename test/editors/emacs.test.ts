// The README's Emacs configuration, proven as the Neovim one is (neovim.test.ts): `emacs --batch` (Debian's 28 with
// its eglot package) evaluates EXACTLY the README's elisp block against the emulator, with the token in
// TF_TOKEN_<host>, opens variables.tf, and gets signed in and sees the server's diagnostics through eglot and flymake.
// `terraform-mode` comes from MELPA for users; here a bare mode of that name stands in for it. Skipped where Emacs or
// eglot is not installed (.ci/run installs both).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { editorEnvironment, editorSandbox, runEditorProbe } from '../helpers/editorProbe';

const hasEglot = spawnSync('emacs', ['--batch', '--eval', "(require 'eglot)"], { stdio: 'ignore' }).status === 0;

/** The elisp block right after the README's `emacs-config` marker. */
async function readmeEmacsConfig(): Promise<string> {
  const readme = await readFile('README.md', 'utf8');
  const marker = readme.indexOf('<!-- emacs-config');
  assert.ok(marker >= 0, 'the README has no emacs-config marker');
  const match = /```elisp\n([\s\S]*?)```/.exec(readme.slice(marker));
  assert.ok(match, 'no elisp block after the emacs-config marker');
  return match[1]!;
}

/** What MELPA's terraform-mode would give: the mode, on `.tf` files. Loaded before the README's block, as a user's would be. */
const terraformModeStandIn = `
(define-derived-mode terraform-mode prog-mode "Terraform")
(add-to-list 'auto-mode-alist '("\\\\.tf\\\\(vars\\\\)?\\\\'" . terraform-mode))
`;

// Visits the file as a user would, runs what a command loop would run after it (eglot-ensure starts the server from
// post-command-hook), waits (bounded, on the condition) for the server's missing-value diagnostic in flymake, then
// writes what it saw as JSON and quits.
const probe = `
(require 'eglot)
(require 'json)
(find-file "variables.tf")
(run-hooks 'post-command-hook)
(defun probe-diagnostics ()
  (mapcar (lambda (d) (flymake-diagnostic-text d)) (flymake-diagnostics)))
(let ((deadline (+ (float-time) 60)) seen)
  (while (and (not seen) (< (float-time) deadline))
    (accept-process-output nil 0.05)
    (run-hooks 'post-command-hook)
    (setq seen (seq-find (lambda (text) (string-match-p "\\\\[missing-value\\\\]" text)) (probe-diagnostics))))
  ;; Read in the visited buffer: with-temp-file makes its own buffer current.
  (let* ((server (eglot-current-server))
         (status (and server (jsonrpc-request server :hcpTerraform/serverStatus nil)))
         (seen-json (json-encode (list (cons 'seen (if seen t :json-false))
                                       (cons 'mode (symbol-name major-mode))
                                       (cons 'server (if server t :json-false))
                                       (cons 'signedIn (if (eq (plist-get status :signedIn) t) t :json-false))
                                       (cons 'address (plist-get status :address))
                                       (cons 'diagnostics (vconcat (probe-diagnostics)))))))
    (with-temp-file (getenv "PROBE_OUT") (insert seen-json)))
  (kill-emacs 0))
`;

describe('Emacs (eglot) with the README configuration', { skip: hasEglot ? false : 'Emacs with eglot is not installed (apt-get install -y emacs-nox elpa-eglot)' }, () => {
  const sandbox = editorSandbox('hcp-emacs-');

  test('signs in from TF_TOKEN_<host> and shows the diagnostics that need the workspace', async () => {
    const { emulator, base } = sandbox;
    const folder = path.join(base, 'demo-app');
    await cp(path.resolve('test/fixtures/demo-app'), folder, { recursive: true });
    const init = path.join(base, 'init.el');
    await writeFile(init, terraformModeStandIn + (await readmeEmacsConfig()));
    const probeFile = path.join(base, 'probe.el');
    await writeFile(probeFile, probe);
    const out = path.join(base, 'probe.json');
    const env = editorEnvironment(base, emulator, { PROBE_OUT: out });
    const { result, output, code } = await runEditorProbe<{
      seen: boolean;
      mode: string;
      server: boolean;
      signedIn: boolean;
      address: string | null;
      diagnostics: string[];
    }>('emacs', ['--batch', '-l', init, '-l', probeFile], folder, env, out);
    assert.ok(result, `emacs wrote nothing (exit ${code}): ${output}`);
    assert.equal(result.mode, 'terraform-mode');
    assert.ok(result.server, `the README config did not start the server: ${output}`);
    assert.deepEqual({ signedIn: result.signedIn, address: result.address }, { signedIn: true, address: emulator.url });
    assert.ok(result.seen, `no missing-value diagnostic: ${JSON.stringify(result.diagnostics)}`);
    // Flymake's text is eglot's "source [code]: message".
    const missing = result.diagnostics.find((text) => text.includes('[missing-value]'));
    assert.match(missing ?? '', /^hcp-terraform \[missing-value\]: Variable "environment" has no value/);
    assert.doesNotMatch(output, new RegExp(emulator.tokens.member), 'the token appears in emacs output');
  });
});

// The extension-host side of the end-to-end run: the same contract as @vscode/test-electron's runTests, so both
// runners (code-server here, test-electron where VS Code can be downloaded) load this file and call run().
import { readdirSync } from 'node:fs';
import path from 'node:path';
import Mocha from 'mocha';

/** The scenario this host was started for (set by the runner): its test files are `<scenario>.*.test.js`. */
const scenario = process.env.HCP_E2E_SCENARIO ?? 'basics';

export function run(): Promise<void> {
  // HCP_E2E_GREP (a title's part) runs only the matching tests, while working on them; never set in CI.
  const grep = process.env.CI ? undefined : process.env.HCP_E2E_GREP;
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 20_000, reporter: 'spec', ...(grep ? { grep } : {}) });
  for (const file of readdirSync(__dirname).filter((f) => f.startsWith(`${scenario}.`) && f.endsWith('.test.js')).sort()) {
    mocha.addFile(path.join(__dirname, file));
  }
  console.log('e2e: suite starting'); // the code-server runner prints the host's output from here on
  return new Promise((resolve, reject) => {
    mocha.run((failures) => {
      // The runner parses this line; it is also mocha's own summary, repeated in one greppable form.
      console.log(`e2e: ${mocha.suite.total() - failures} passed, ${failures} failed`);
      if (failures > 0) reject(new Error(`${failures} end-to-end test(s) failed`));
      else resolve();
    });
  });
}

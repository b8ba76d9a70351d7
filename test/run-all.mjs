// `npm test`: type checking, unit and contract tests, the packaging check, and the end-to-end run inside VS Code.
// Every step runs even when an earlier one fails, so one run shows everything that is wrong; the exit code is 0
// only when all passed. The last line is the overall count, e.g. "total: 250 passed, 0 failed".
import { spawn } from 'node:child_process';

const steps = [
  { name: 'type check', command: 'npm run --silent typecheck' },
  { name: 'build', command: 'node esbuild.mjs' },
  { name: 'unit and contract tests', command: 'node test/run-unit.mjs', counts: nodeTestCounts },
  { name: 'package (.vsix)', command: 'npm run --silent package' },
  { name: 'vsix contents', command: 'node --import tsx --test --test-reporter=spec test/package/vsix.test.ts', counts: nodeTestCounts },
  { name: 'build for e2e', command: 'node esbuild.mjs && node esbuild.mjs --tests' },
  { name: 'end-to-end in VS Code 1.100', command: 'node test/e2e/run-code-server.mjs', counts: e2eCounts },
  { name: 'demo tour (screenshots)', command: 'node test/demo/run-demo.mjs --screenshot test-results/tour.png' },
];

function nodeTestCounts(output) {
  const pass = /ℹ pass (\d+)/.exec(output);
  const fail = /ℹ fail (\d+)/.exec(output);
  return pass && fail ? { passed: Number(pass[1]), failed: Number(fail[1]) } : undefined;
}

function e2eCounts(output) {
  let passed = 0;
  let failed = 0;
  for (const match of output.matchAll(/^(?:e2e|ui): (\d+) passed, (\d+) failed$/gm)) {
    passed += Number(match[1]);
    failed += Number(match[2]);
  }
  return passed + failed > 0 ? { passed, failed } : undefined;
}

function run(command) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const forward = (stream) => (chunk) => {
      output += chunk;
      stream.write(chunk);
    };
    child.stdout.on('data', forward(process.stdout));
    child.stderr.on('data', forward(process.stderr));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const results = [];
for (const step of steps) {
  console.log(`\n━━ ${step.name}: ${step.command}`);
  const started = Date.now();
  const { code, output } = await run(step.command);
  const counts = step.counts?.(output);
  // A step that claims counts but printed none ran no test: that is a failure, not a pass.
  const ok = code === 0 && (!step.counts || (counts !== undefined && counts.passed > 0));
  results.push({ ...step, ok, code, counts, seconds: (Date.now() - started) / 1000 });
}

console.log('\n━━ summary');
for (const r of results) {
  const counts = r.counts ? ` (${r.counts.passed} passed, ${r.counts.failed} failed)` : '';
  console.log(`${r.ok ? '✔' : '✖'} ${r.name}${counts} ${r.seconds.toFixed(1)} s${r.ok ? '' : ` — exit ${r.code}`}`);
}
const passed = results.reduce((sum, r) => sum + (r.counts?.passed ?? 0), 0);
const failed = results.reduce((sum, r) => sum + (r.counts?.failed ?? 0), 0) + results.filter((r) => !r.ok && !r.counts?.failed).length;
console.log(`total: ${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.ok) ? 0 : 1);

// `npm test`: type-check, build, then every suite — unit, conformance and
// integration (vitest, including the real Claude Code and OpenCode CLIs) and the
// app in Chromium (Playwright). Where the machine allows it (root with
// `unshare`), the vitest suites run in a fresh network namespace that has only
// loopback, so the agent CLIs and everything else are provably offline. The
// browser suite runs outside it: Chromium reports `navigator.onLine === false`
// in such a namespace, which would test a different app than people use.
//
// With COMMANDR_TEST_TOGETHER=1 vitest runs side by side with the app's build and then
// Playwright (SUITE-3): its output lines are prefixed [vitest], theirs [build app] / [playwright].
//
// COMMANDR_TEST_HOGS=N runs N CPU-bound processes beside the whole run (the suite
// must pass on a busy machine, SUITE-1); they are stopped at the end, on failure
// and on Ctrl-C. Every run ends with the time per stage and the slowest 15 test
// files (SUITE-2), so each CI log shows where the time goes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hogCount, playwrightFiles, readReport, runStages, runTogether, timingReport, vitestFiles } from './test-run.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
const bin = (name) => join(root, 'node_modules', '.bin', name);

function canIsolate() {
  if (env.COMMANDR_TEST_NO_NETNS) return false;
  return spawnSync('unshare', ['-n', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore' }).status === 0;
}

/** Runs `cmd args` inside a new network namespace with loopback up. */
function offline(cmd, args) {
  const quoted = [cmd, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return ['unshare', ['-n', 'sh', '-c', `ip link set lo up && exec ${quoted}`]];
}

let hogs;
let together;
try {
  hogs = hogCount(env.COMMANDR_TEST_HOGS);
  together = runTogether(env.COMMANDR_TEST_TOGETHER);
} catch (error) {
  process.stderr.write(`npm test: ${error.message}\n`);
  process.exit(2);
}
const reports = mkdtempSync(join(tmpdir(), 'commandr-test-reports-'));
const vitestJson = join(reports, 'vitest.json');
const playwrightJson = join(reports, 'playwright.json');
process.on('exit', () => rmSync(reports, { recursive: true, force: true })); // also when a signal ends the run
const isolate = canIsolate();
const vitestArgs = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`];
const vitest = isolate ? offline(bin('vitest'), vitestArgs) : [bin('vitest'), vitestArgs];
// With COMMANDR_TEST_TOGETHER=1 vitest runs beside the app's build and the browser suite (SUITE-3). Not by
// default: on 2 cores side by side saved about a tenth of the run and put real-CLI tests past their limits.
process.stdout.write(`\n== vitest ${isolate ? 'offline (a network namespace with only loopback)' : 'without a network namespace here (tests use loopback only)'}${together ? ', beside build app then playwright (SUITE-3)' : ''}\n`);
const vitestStage = ['vitest', ...vitest];
const appStages = [
  ['build app', process.execPath, ['scripts/build-app.mjs']],
  ['playwright', bin('playwright'), ['test', '--reporter=list,json'], { env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson } }],
];
const steps = [
  ['typecheck', bin('tsc'), ['--noEmit', '-p', '.']],
  ['build tools', process.execPath, ['scripts/build.mjs']],
  ...(together ? [{ together: [[vitestStage], appStages] }] : [vitestStage, ...appStages]),
];
const { code, times, wallMs } = await runStages(steps, { cwd: root, env, hogs });
const files = [...vitestFiles(readReport(vitestJson), root), ...playwrightFiles(readReport(playwrightJson), root)];
process.stdout.write(timingReport(times, files, 15, wallMs));
process.exit(code);

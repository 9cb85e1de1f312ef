// `npm test`: type-check, build, then every suite — unit, conformance and
// integration (vitest, including the real Claude Code and OpenCode CLIs) and the
// app in Chromium (Playwright). Where the machine allows it (root with
// `unshare`), the vitest suites run in a fresh network namespace that has only
// loopback, so the agent CLIs and everything else are provably offline. The
// browser suite runs outside it: Chromium reports `navigator.onLine === false`
// in such a namespace, which would test a different app than people use.
//
// By default the stages run one after another. COMMANDR_TEST_TOGETHER=1 runs vitest beside the app's
// build and then Playwright (SUITE-3); =split runs the vitest files that start a real agent CLI (Claude
// Code, OpenCode) on their own first, then every other vitest file beside the type-check, the app's
// build and Playwright (SUITE-8). Side by side, output lines are prefixed with their stage's label.
//
// COMMANDR_TEST_HOGS=N runs N CPU-bound processes beside the whole run (the suite
// must pass on a busy machine, SUITE-1); they are stopped at the end, on failure
// and on Ctrl-C. Every run ends with the time per stage and the slowest 15 test
// files (SUITE-2), so each CI log shows where the time goes, and with how fast and how busy the
// machine was (SUITE-11), so runs on different machines or days can be compared.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hogCount, machineBusyCpu, machineFacts, nodeStartCpuMs, playwrightFiles, playwrightStageEnv, readReport, runStages, stageEnv, stageLayout, timingReport, vitestFiles } from './test-run.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const env = stageEnv(process.env); // SUITE-10
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
let layout;
try {
  hogs = hogCount(env.COMMANDR_TEST_HOGS);
  layout = stageLayout(env.COMMANDR_TEST_TOGETHER);
} catch (error) {
  process.stderr.write(`npm test: ${error.message}\n`);
  process.exit(2);
}
const reports = mkdtempSync(join(tmpdir(), 'commandr-test-reports-'));
const vitestJson = (name) => join(reports, `${name}.json`);
const playwrightJson = join(reports, 'playwright.json');
process.on('exit', () => rmSync(reports, { recursive: true, force: true })); // also when a signal ends the run
const isolate = canIsolate();
/** A vitest stage: `group` is COMMANDR_VITEST_GROUP (SUITE-8), undefined for every file. */
const vitestStage = (label, group) => {
  const args = ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson(group ?? 'vitest')}`];
  const [cmd, argv] = isolate ? offline(bin('vitest'), args) : [bin('vitest'), args];
  return [label, cmd, argv, group ? { env: { COMMANDR_VITEST_GROUP: group } } : {}];
};
process.stdout.write(`\n== vitest ${isolate ? 'offline (a network namespace with only loopback)' : 'without a network namespace here (tests use loopback only)'}, ${{
  split: 'the files that start a real agent CLI first, then the rest beside the app\'s build and Playwright (SUITE-8)',
  all: 'beside the app\'s build then Playwright (SUITE-3)',
  none: 'one stage after another (SUITE-3)',
}[layout]}\n`);
const typecheck = ['typecheck', bin('tsc'), ['--noEmit', '-p', '.']];
const buildTools = ['build tools', process.execPath, ['scripts/build.mjs']];
const appStages = [
  ['build app', process.execPath, ['scripts/build-app.mjs']],
  ['playwright', bin('playwright'), ['test', '--reporter=list,json'], { env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson, ...playwrightStageEnv(layout, env) } }],
];
const steps = {
  split: [buildTools, vitestStage('vitest agent CLIs', 'agent-clis'), { together: [[typecheck, vitestStage('vitest', 'others')], appStages] }],
  all: [typecheck, buildTools, { together: [[vitestStage('vitest')], appStages] }],
  none: [typecheck, buildTools, vitestStage('vitest'), ...appStages],
}[layout];
// SUITE-11: how fast the machine is (before any hog starts) and how busy the run kept it.
let nodeStartMs;
try {
  nodeStartMs = nodeStartCpuMs(env);
} catch (error) {
  process.stderr.write(`npm test: ${error.message}\n`);
  process.exit(2);
}
const busyBefore = machineBusyCpu();
const { code, times, wallMs } = await runStages(steps, { cwd: root, env, hogs });
const machine = machineFacts({ nodeStartMs, busyBefore, busyAfter: machineBusyCpu(), wallMs });
const files = [
  ...['agent-clis', 'others', 'vitest'].flatMap((name) => vitestFiles(readReport(vitestJson(name)), root)),
  ...playwrightFiles(readReport(playwrightJson), root),
];
process.stdout.write(timingReport(times, files, 15, wallMs, machine));
process.exit(code);

// WIREPATH-n: `commandr init --wire` / `commandr wire` on a real git repo leave no machine's
// absolute path in anything git would commit; the files that must name this install are
// git-ignored; an older wire's absolute entries in committed files are taken out (only ours).
// That the hooks then still fire for a real `claude -p` is proven by claude-wire.test.ts
// (every real session there runs on hooks wired into .claude/settings.local.json).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { wiredHookSpecs } from '../../adapters/claude/lib/permission-spec';
import { cleanup, git, hookLine, makeHome, ROOT, runProcess, tempDir } from './harness';

afterAll(cleanup);

const COMMANDR = path.join(ROOT, 'bin', 'commandr');

function bareRepo(): string {
  const repo = tempDir('commandr-wirepath-');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.email', 't@example.com');
  git(repo, 'config', 'user.name', 'Test');
  fs.writeFileSync(path.join(repo, 'README.md'), '# test\n');
  return repo;
}

function commandr(repo: string, args: string[]) {
  const h = makeHome();
  return runProcess(COMMANDR, args, { cwd: repo, env: { PATH: process.env.PATH, HOME: h.home, COMMANDR_HOME: h.commandrHome } });
}

/** Every file `git add -A` would stage, with its text. */
function committable(repo: string): Map<string, string> {
  git(repo, 'add', '-A');
  const names = git(repo, 'diff', '--cached', '--name-only', '-z').split('\0').filter(Boolean);
  return new Map(names.map((name) => [name, fs.readFileSync(path.join(repo, name), 'utf8')]));
}

/** The machine's paths a committed file must not name. */
const machinePaths = () => [ROOT, os.homedir(), path.dirname(process.execPath)].filter((p) => p.length > 1);

function expectNoMachinePaths(files: Map<string, string>): void {
  for (const [name, text] of files) for (const p of machinePaths()) expect(text.includes(p), `${name} names ${p}`).toBe(false);
}

describe('wire leaves no machine paths in committed files', () => {
  it('WIREPATH-1: init --wire (Claude Code) and wire --adapter opencode: nothing git would commit names this install, $HOME or node; the local files are ignored', async () => {
    const repo = bareRepo();
    const init = await commandr(repo, ['init', '--wire']);
    expect(init.code, init.stderr).toBe(0);
    const oc = await commandr(repo, ['wire', '--adapter', 'opencode']);
    expect(oc.code, oc.stderr).toBe(0);
    const local = ['.claude/settings.local.json', '.opencode/plugin/commandr.js'];
    // The local files exist and do name this install: that is why they must stay out of git.
    for (const rel of local) expect(fs.readFileSync(path.join(repo, rel), 'utf8')).toContain(ROOT);
    const files = committable(repo);
    for (const rel of local) expect(files.has(rel), rel).toBe(false);
    expect([...files.keys()]).toEqual(expect.arrayContaining(['.gitignore', '.mcp.json', '.claude/settings.json']));
    expectNoMachinePaths(files);
    // init wrote the ignore lines itself (wire added none).
    const ignore = fs.readFileSync(path.join(repo, '.gitignore'), 'utf8').split('\n');
    for (const rel of local) expect(ignore.filter((l) => l === `/${rel}`)).toHaveLength(1);
  });

  it('WIREPATH-1: commandr init alone writes the ignore lines for the local files, so a later wire commits nothing machine-specific', async () => {
    const repo = bareRepo();
    expect((await commandr(repo, ['init', '--no-sandbox'])).code).toBe(0); // only wire's files are looked at here
    for (const rel of ['.claude/settings.local.json', '.opencode/plugin/commandr.js']) {
      fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
      fs.writeFileSync(path.join(repo, rel), 'x');
      expect(git(repo, 'check-ignore', rel).trim()).toBe(rel);
    }
  });

  it('WIREPATH-1: in a repo never initialised, wire itself ignores the local files it writes (once; --dry-run writes no .gitignore)', async () => {
    const repo = bareRepo();
    const dry = await commandr(repo, ['wire', '--dry-run']);
    expect(dry.stdout).toMatch(/\.gitignore: would fix \(ignores \/\.claude\/settings\.local\.json\)/);
    expect(fs.existsSync(path.join(repo, '.gitignore'))).toBe(false);
    for (let i = 0; i < 2; i++) {
      expect((await commandr(repo, ['wire'])).code).toBe(0);
      expect((await commandr(repo, ['wire', '--adapter', 'opencode'])).code).toBe(0);
    }
    expect(fs.readFileSync(path.join(repo, '.gitignore'), 'utf8')).toBe('/.claude/settings.local.json\n/.opencode/plugin/commandr.js\n');
    const files = committable(repo);
    expect(files.has('.claude/settings.local.json') || files.has('.opencode/plugin/commandr.js')).toBe(false);
    expectNoMachinePaths(files);
  });

  it('WIREPATH-1: a .gitignore that is a symlink (a cloned repo can track one) is refused: wire never appends to the file it points at, and writes nothing', async () => {
    const repo = bareRepo();
    const outside = path.join(tempDir('commandr-wirepath-victim-'), 'victim.rc');
    fs.writeFileSync(outside, 'precious\n');
    fs.symlinkSync(outside, path.join(repo, '.gitignore'));
    for (const args of [['wire'], ['wire', '--adapter', 'opencode']]) {
      const wired = await commandr(repo, args);
      expect(wired.code, args.join(' ')).not.toBe(0);
      expect(wired.stdout + wired.stderr).toMatch(/\.gitignore is a symlink/);
    }
    expect(fs.readFileSync(outside, 'utf8')).toBe('precious\n');
    expect(fs.existsSync(path.join(repo, '.claude', 'settings.local.json'))).toBe(false);
    expect(fs.existsSync(path.join(repo, '.opencode', 'plugin', 'commandr.js'))).toBe(false);
  });

  it('WIREPATH-2 WIREPATH-3: an older wire\'s absolute entries in committed files are taken out, the person\'s own stay; --dry-run says so and writes nothing', async () => {
    const repo = bareRepo();
    expect((await commandr(repo, ['init', '--no-sandbox'])).code).toBe(0); // only wire's files are looked at here
    const mine = { type: 'command', command: 'echo mine' };
    // What the previous wire wrote into committed files: this install's absolute paths.
    const hooks: Record<string, unknown[]> = { Notification: [{ hooks: [mine] }] };
    for (const spec of wiredHookSpecs()) {
      (hooks[spec.event] ??= []).push({ ...(spec.matcher ? { matcher: spec.matcher } : {}), hooks: [{ type: 'command', command: spec.command, args: spec.args, timeout: spec.timeout }] });
    }
    (hooks.Stop as Array<{ hooks: unknown[] }>)[0]!.hooks.push(mine);
    const oldMcp = { type: 'stdio', command: process.execPath, args: [COMMANDR, 'mcp'] };
    const oldOc = { type: 'local', command: [process.execPath, COMMANDR, 'mcp'], enabled: true };
    const files: Record<string, unknown> = {
      '.claude/settings.json': { model: 'keep-me', hooks, enabledMcpjsonServers: ['commandr'] },
      '.mcp.json': { mcpServers: { commandr: oldMcp, other: { command: 'other-server' } } },
      'opencode.json': { mcp: { commandr: oldOc } },
    };
    for (const [rel, doc] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(repo, rel)), { recursive: true });
      fs.writeFileSync(path.join(repo, rel), JSON.stringify(doc, null, 2));
    }
    const snapshot = () => Object.keys(files).map((rel) => (fs.existsSync(path.join(repo, rel)) ? fs.readFileSync(path.join(repo, rel), 'utf8') : null));
    const before = snapshot();

    const dry = await commandr(repo, ['wire', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/\.claude\/settings\.json: would fix \(commandr hooks moved/);
    expect(dry.stdout).toMatch(/\.mcp\.json: would fix/);
    const dryOc = await commandr(repo, ['wire', '--adapter', 'opencode', '--dry-run']);
    expect(dryOc.stdout).toMatch(/opencode\.json: would fix/);
    expect(snapshot()).toEqual(before);
    expect(fs.existsSync(path.join(repo, '.claude', 'settings.local.json'))).toBe(false);

    expect((await commandr(repo, ['wire'])).code).toBe(0);
    expect((await commandr(repo, ['wire', '--adapter', 'opencode'])).code).toBe(0);
    const settings = JSON.parse(fs.readFileSync(path.join(repo, '.claude', 'settings.json'), 'utf8'));
    expect(settings).toEqual({ model: 'keep-me', hooks: { Notification: [{ hooks: [mine] }], Stop: [{ hooks: [mine] }] }, enabledMcpjsonServers: ['commandr'] });
    const mcp = JSON.parse(fs.readFileSync(path.join(repo, '.mcp.json'), 'utf8'));
    expect(mcp.mcpServers).toEqual({ commandr: { type: 'stdio', command: 'commandr', args: ['mcp'] }, other: { command: 'other-server' } });
    // opencode.json held nothing but our entry: gone, the plugin registers the server now.
    expect(fs.existsSync(path.join(repo, 'opencode.json'))).toBe(false);
    expectNoMachinePaths(committable(repo));
    // The hooks moved, not lost.
    const local = JSON.parse(fs.readFileSync(path.join(repo, '.claude', 'settings.local.json'), 'utf8'));
    expect(local.hooks.Stop.flatMap((e: { hooks: Array<{ command: string }> }) => e.hooks).some((x: { command: string }) => hookLine(x).includes(ROOT))).toBe(true);
  });
});

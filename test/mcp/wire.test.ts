// `wire` registers `commandr mcp` for Claude Code (.mcp.json + enabledMcpjsonServers)
// and OpenCode (opencode.json `mcp`), merged with what is there and idempotent.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adapterBin, cleanup, makeRepo, runProcess } from '../adapters/harness';
import { opencodeServerEntry, withOpencodeMcp } from '../../adapters/mcp/wire';

afterAll(cleanup);
const env = { PATH: process.env.PATH };
const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

describe('wiring commandr mcp', () => {
  it('MCP-8: claude wire adds the commandr server to .mcp.json beside existing ones and enables it for headless runs; a second run changes nothing', async () => {
    const { repo } = makeRepo();
    fs.writeFileSync(path.join(repo, '.mcp.json'), JSON.stringify({ mcpServers: { other: { command: 'other-server' } } }));
    fs.mkdirSync(path.join(repo, '.claude'));
    fs.writeFileSync(path.join(repo, '.claude', 'settings.json'), JSON.stringify({ model: 'keep-me', enabledMcpjsonServers: ['other'] }));
    const first = await runProcess(adapterBin('claude', 'wire'), [repo], { cwd: repo, env });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('mcp server commandr');
    const mcp = read(path.join(repo, '.mcp.json'));
    expect(mcp.mcpServers.other).toEqual({ command: 'other-server' });
    // No path of this machine in the committed file: `commandr` through PATH (WIREPATH-2).
    expect(mcp.mcpServers.commandr).toEqual({ type: 'stdio', command: 'commandr', args: ['mcp'] });
    const settings = read(path.join(repo, '.claude', 'settings.json'));
    expect(settings.model).toBe('keep-me');
    expect(settings.enabledMcpjsonServers).toEqual(['other', 'commandr']);
    const before = [fs.readFileSync(path.join(repo, '.mcp.json'), 'utf8'), fs.readFileSync(path.join(repo, '.claude', 'settings.json'), 'utf8')];
    const second = await runProcess(adapterBin('claude', 'wire'), [repo], { cwd: repo, env });
    expect(second.code).toBe(0);
    expect(second.stdout).not.toMatch(/fixed/);
    expect([fs.readFileSync(path.join(repo, '.mcp.json'), 'utf8'), fs.readFileSync(path.join(repo, '.claude', 'settings.json'), 'utf8')]).toEqual(before);
  });

  it('MCP-8: a .mcp.json that is not JSON is refused and nothing is changed', async () => {
    const { repo } = makeRepo();
    fs.writeFileSync(path.join(repo, '.mcp.json'), '{ not json');
    const ran = await runProcess(adapterBin('claude', 'wire'), [repo], { cwd: repo, env });
    expect(ran.code).not.toBe(0);
    expect(ran.stderr).toMatch(/E_BAD_SETTINGS: .*\.mcp\.json is not valid JSON/);
    expect(fs.readFileSync(path.join(repo, '.mcp.json'), 'utf8')).toBe('{ not json');
  });

  it('MCP-8 WIREPATH-3: opencode wire registers the server from its plugin, leaves opencode.json alone, and takes out an older wire\'s entry there, keeping the rest', async () => {
    const { repo } = makeRepo();
    const oldEntry = { type: 'local', command: [process.execPath, path.join(path.dirname(adapterBin('opencode', 'wire')), '..', '..', 'bin', 'commandr'), 'mcp'], enabled: true };
    fs.writeFileSync(path.join(repo, 'opencode.json'), JSON.stringify({ model: 'stub/stub-model', mcp: { other: { type: 'local', command: ['x'] }, commandr: oldEntry } }));
    const dry = await runProcess(adapterBin('opencode', 'wire'), [repo, '--dry-run'], { cwd: repo, env });
    expect(dry.stdout).toMatch(/opencode\.json: would fix/);
    expect(read(path.join(repo, 'opencode.json')).mcp.commandr).toEqual(oldEntry);
    const first = await runProcess(adapterBin('opencode', 'wire'), [repo], { cwd: repo, env });
    expect(first.code, first.stderr).toBe(0);
    const config = read(path.join(repo, 'opencode.json'));
    expect(config).toEqual({ model: 'stub/stub-model', mcp: { other: { type: 'local', command: ['x'] } } });
    const plugin = fs.readFileSync(path.join(repo, '.opencode', 'plugin', 'commandr.js'), 'utf8');
    expect(plugin).toContain('config: async (config)');
    expect(plugin).toContain(JSON.stringify(opencodeServerEntry()));
    const before = fs.readFileSync(path.join(repo, 'opencode.json'), 'utf8');
    const second = await runProcess(adapterBin('opencode', 'wire'), [repo], { cwd: repo, env });
    expect(second.stdout).not.toMatch(/fixed/);
    expect(fs.readFileSync(path.join(repo, 'opencode.json'), 'utf8')).toBe(before);
  });

  it('MCP-8: a headless OpenCode job\'s inline config gets the server merged over what it carried', () => {
    const merged = JSON.parse(withOpencodeMcp(JSON.stringify({ permission: { bash: { '*': 'deny' } }, mcp: { other: { type: 'local', command: ['x'] } } })));
    expect(merged.permission).toEqual({ bash: { '*': 'deny' } });
    expect(Object.keys(merged.mcp)).toEqual(['other', 'commandr']);
  });
});

// The claude adapter's `run` against the REAL Claude Code CLI and the Messages API
// stand-in: session line, final text, exit code, intents rendered as permissions, hostile input.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantsFor, parseCommands } from '../../adapters/lib/intent';
import { claudeSettings } from '../../adapters/claude/lib/permissions';
import type { MessagesApi } from '../stand-ins/messages-api';
import { planTurn, requestText, type PlannedTool } from './claude-script';
import { adapterBin, CLAUDE_BIN, claudeEnv, cleanup, git, runProcess, runSandboxed, type Home } from './harness';
import { claudeWorld } from './world';

let api: MessagesApi;
let h: Home;
let repo: string;

beforeAll(async () => {
  ({ api, h, repo } = await claudeWorld({ relay: false, wired: false, npmTest: true }));
});

afterAll(cleanup);

function run(env: Record<string, string>, tools: PlannedTool[] = [], finalText = 'job finished') {
  planTurn(api, tools, finalText);
  return runProcess(adapterBin('claude', 'run'), [], {
    cwd: repo,
    env: claudeEnv(h, api.url, { COMMANDR_CLAUDE_BIN: CLAUDE_BIN, AGENT_CWD: repo, ...env }),
  });
}

/** The same run inside the OS sandbox, as the relay starts every job by default (SANDBOX-5). */
function runInSandbox(env: Record<string, string>, tools: PlannedTool[] = [], finalText = 'job finished') {
  planTurn(api, tools, finalText);
  return runSandboxed(adapterBin('claude', 'run'), [], {
    cwd: repo, repo, dataDir: h.commandrHome,
    env: claudeEnv(h, api.url, { COMMANDR_CLAUDE_BIN: CLAUDE_BIN, AGENT_CWD: repo, ...env }),
  });
}

/** Tool results the CLI sent back to the model, as text. */
const toolResults = (from: number) =>
  api.messageRequests().slice(from).flatMap((r) => r.body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])))
    .filter((b: any) => b.type === 'tool_result').map((b: any) => JSON.stringify(b.content));

describe('claude run', () => {
  it('RUN-1: prints SESSION: <id> first, the final text on stdout, and exits 0; AGENT_RESUME continues that session', async () => {
    const ran = await run({ AGENT_PROMPT: 'say hello', AGENT_MODE: 'work' }, [], 'hello from the job\nNOT READY: need a key');
    expect(ran.code, ran.stderr).toBe(0);
    const lines = ran.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^SESSION: [0-9a-f-]{36}$/);
    expect(ran.stdout).toContain('hello from the job\nNOT READY: need a key');
    // Streamed as it arrived, and not printed a second time from the result.
    expect(ran.stdout.split('hello from the job').length - 1).toBe(1);
    const session = lines[0]!.slice('SESSION: '.length);
    const from = api.messageRequests().length;
    const again = await run({ AGENT_PROMPT: 'and again', AGENT_RESUME: session }, [], 'second');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout.split('\n')[0]).toBe(`SESSION: ${session}`);
    expect(requestText(api, from)).toContain('hello from the job');
  });

  it('RUN-2 POLPATH-5: intent work with AGENT_COMMANDS=npm test, sandboxed as a relay job is: npm test runs, touch is denied (the real CLI reports the denial); unsandboxed, npm test is denied', async () => {
    const from = api.messageRequests().length;
    const ran = await runInSandbox({ AGENT_PROMPT: 'work', AGENT_MODE: 'work', AGENT_COMMANDS: 'npm test' }, [
      { name: 'Bash', input: { command: 'touch forbidden.txt' } },
      { name: 'Bash', input: { command: 'npm test' } },
      { name: 'Write', input: { file_path: path.join(repo, 'allowed-edit.txt'), content: 'x' } },
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, 'forbidden.txt'))).toBe(false);
    expect(ran.stderr).toMatch(/denied Bash touch forbidden\.txt/);
    expect(ran.stderr).not.toMatch(/denied Bash npm test/);
    expect(toolResults(from).some((t) => t.includes('3 passed, 0 failed'))).toBe(true);
    expect(fs.existsSync(path.join(repo, 'allowed-edit.txt'))).toBe(true);

    // The same job outside any sandbox: the project's own code is not run unasked, and headless nobody is asked.
    const plain = api.messageRequests().length;
    const unboxed = await run({ AGENT_PROMPT: 'work', AGENT_MODE: 'work', AGENT_COMMANDS: 'npm test' }, [{ name: 'Bash', input: { command: 'npm test' } }]);
    expect(unboxed.code, unboxed.stderr).toBe(0);
    expect(unboxed.stderr).toMatch(/denied Bash npm test/);
    expect(toolResults(plain).some((t) => t.includes('3 passed, 0 failed'))).toBe(false);
    expect(toolResults(plain).join('\n')).toMatch(/sandboxed/);
  });

  it('RUN-3: intent review denies edits and commits: the file stays absent', async () => {
    const ran = await run({ AGENT_PROMPT: 'review', AGENT_MODE: 'review', AGENT_COMMANDS: 'npm test' }, [
      { name: 'Write', input: { file_path: path.join(repo, 'review-edit.txt'), content: 'x' } },
      { name: 'Bash', input: { command: 'git commit --allow-empty -m sneaky' } },
    ]);
    expect(ran.code, ran.stderr).toBe(0);
    expect(fs.existsSync(path.join(repo, 'review-edit.txt'))).toBe(false);
    expect(git(repo, 'log', '--format=%s')).not.toContain('sneaky');
    expect(ran.stderr).toMatch(/denied Bash git commit/);
    expect(ran.stdout).toContain('job finished');
  });

  it('RUN-4: the generated settings allow exactly the intent: Bash(<prefix>:*) rules, edits only for work/act-pr, no blanket allow', () => {
    const work = claudeSettings(grantsFor('work', parseCommands('npm test, python3 -m unittest')), ['/w/t']);
    expect(work.permissions.allow).toEqual(expect.arrayContaining(['Bash(npm test:*)', 'Bash(python3 -m unittest:*)', 'Bash(git commit:*)', 'Edit(//w/t/**)', 'Write(//w/t/**)']));
    expect(work.permissions.allow).not.toContain('Edit'); // a bare rule applies to any path (GUARD-8)
    expect(work.permissions.allow).not.toContain('Bash(git push:*)');
    expect(work.permissions.deny).toContain('Bash(git push:*)');
    const pr = claudeSettings(grantsFor('act-pr', []));
    expect(pr.permissions.allow).toEqual(expect.arrayContaining(['Bash(git push:*)', 'Bash(gh pr view:*)', 'Bash(gh api:*)']));
    const review = claudeSettings(grantsFor('review', parseCommands('npm test')));
    expect(review.permissions.deny).toEqual(expect.arrayContaining(['Edit', 'Write', 'NotebookEdit', 'Bash(git commit:*)']));
    expect(review.permissions.allow).toEqual(expect.arrayContaining(['Bash(gh pr review:*)', 'Bash(gh pr comment:*)']));
    for (const s of [work, pr, review]) {
      for (const rule of s.permissions.allow) expect(rule).not.toMatch(/^Bash$|^Bash\(\*|\(\*\)|^\*$/);
    }
  });

  it('RUN-5: shell metacharacters in the prompt reach the model verbatim and are never interpreted', async () => {
    const hostile = 'x"; touch pwned1; $(touch pwned2) `touch pwned3` | tee pwned4 & \'quoted\' \\n';
    const from = api.messageRequests().length;
    const ran = await run({ AGENT_PROMPT: hostile, AGENT_MODE: 'work' });
    expect(ran.code, ran.stderr).toBe(0);
    for (const f of ['pwned1', 'pwned2', 'pwned3', 'pwned4']) expect(fs.existsSync(path.join(repo, f))).toBe(false);
    expect(requestText(api, from)).toContain(JSON.stringify(hostile).slice(1, -1));
  });

  it('RUN-6: a prefix with shell metacharacters or rule syntax is rejected with a clear error before anything starts', async () => {
    for (const bad of ['npm test; touch x', 'npm test:*', 'Bash(npm test)', 'npm $(id)', 'rm -rf *', 'a|b']) {
      const from = api.requests.length;
      const ran = await run({ AGENT_PROMPT: 'x', AGENT_COMMANDS: bad });
      expect(ran.code, bad).toBe(2);
      expect(ran.stderr).toContain('E_BAD_PREFIX');
      expect(api.requests.length).toBe(from);
    }
    const mode = await run({ AGENT_PROMPT: 'x', AGENT_MODE: 'yolo' });
    expect(mode.code).toBe(2);
    expect(mode.stderr).toContain('E_BAD_MODE');
    const empty = await run({ AGENT_PROMPT: '  ' });
    expect(empty.stderr).toContain('E_NO_PROMPT');
  });

  it('MCP-ONE-8: the job gives its commandr server 30 s to connect unless the environment says otherwise, and the real CLI runs with it', async () => {
    // The real CLI, started through a wrapper that first writes down the limit it was given.
    const seen = path.join(h.home, 'mcp-connect-timeout');
    const wrapper = path.join(h.home, 'claude-recording');
    fs.writeFileSync(wrapper, `#!/bin/sh\nprintf '%s' "\${MCP_CONNECT_TIMEOUT_MS-unset}" > '${seen}'\nexec '${CLAUDE_BIN}' "$@"\n`, { mode: 0o755 });
    const job = (extra: Record<string, string>) => {
      planTurn(api, [], 'job finished');
      return runProcess(adapterBin('claude', 'run'), [], {
        cwd: repo,
        env: claudeEnv(h, api.url, { COMMANDR_CLAUDE_BIN: wrapper, AGENT_CWD: repo, AGENT_PROMPT: 'say hello', AGENT_MODE: 'review', ...extra }),
      });
    };
    const plain = await job({});
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('job finished');
    expect(fs.readFileSync(seen, 'utf8')).toBe('30000');
    const chosen = await job({ MCP_CONNECT_TIMEOUT_MS: '45000' });
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(fs.readFileSync(seen, 'utf8')).toBe('45000');
  });

  it('RUN-7: the CLI exit code passes through', async () => {
    const ran = await runProcess(adapterBin('claude', 'run'), [], {
      cwd: repo,
      env: claudeEnv(h, api.url, { COMMANDR_CLAUDE_BIN: path.join(repo, 'no-such-claude'), AGENT_PROMPT: 'x', AGENT_CWD: repo }),
    });
    expect(ran.code).toBe(127);
    const failing = path.join(repo, 'fail.sh');
    fs.writeFileSync(failing, '#!/bin/sh\nexit 7\n', { mode: 0o755 });
    const seven = await runProcess(adapterBin('claude', 'run'), [], {
      cwd: repo, env: claudeEnv(h, api.url, { COMMANDR_CLAUDE_BIN: failing, AGENT_PROMPT: 'x', AGENT_CWD: repo }),
    });
    expect(seven.code).toBe(7);
  });
});

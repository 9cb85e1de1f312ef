// The task's scope comes from its packet on the bus: edits inside it are allowed
// outright, edits outside it need a person (a real repo, a real bus).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPermission, taskScope } from '../../adapters/lib/permission-check';
import { cleanup, makeHome, makeRepo } from '../adapters/harness';

afterAll(() => cleanup());

describe('task scope from the packet', () => {
  it('POLICY-3: the packet scope of the session\'s task decides edits; with no task an edit needs a person', () => {
    const { repo, bus } = makeRepo();
    const h = makeHome();
    fs.writeFileSync(path.join(bus, 'inbox', 'T-9.md'), '---\nid: T-9\ntype: implementation\nscope: "src/**"\n---\n# T-9\n');
    expect(taskScope(bus, 'T-9')).toBe('src/**');
    const env = { HOME: h.home, COMMANDR_HOME: h.commandrHome, AGENTS_TASK_ID: 'T-9' };
    const edit = (file: string, e: Record<string, string> = env) =>
      checkPermission({ session: 's', cwd: repo, tool: 'Write', input: { file_path: path.join(repo, file), content: 'x' } }, e);
    expect(edit('src/deep/a.ts').verdict).toMatchObject({ decision: 'allow', rule: 'scope' });
    const outside = edit('docs/a.md');
    expect(outside.verdict).toMatchObject({ decision: 'ask', rule: 'scope' });
    expect(outside.ask).toMatchObject({ task: 'T-9', tool: 'Write', timeoutMs: 120_000 });
    expect(edit('src/a.ts', { HOME: h.home, COMMANDR_HOME: h.commandrHome }).verdict.decision).toBe('ask');
  });
});

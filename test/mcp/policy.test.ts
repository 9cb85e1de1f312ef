// The shipped permission policy lets an agent call commandr's own tools without asking.
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicy } from '../../policy/load';
import { evaluate } from '../../policy/policy';
import { MCP_TOOL_NAMES } from '../../protocol/mcp/tools';

const policy = loadPolicy({ defaultFile: path.join(__dirname, '..', '..', 'policy', 'default-policy.yaml') });

describe('the default policy and the commandr tools', () => {
  it('MCP-9: every commandr tool, as Claude Code and OpenCode name it, is allowed; another server\'s tool is still asked', () => {
    for (const name of MCP_TOOL_NAMES) {
      for (const tool of [`mcp__commandr__${name}`, `commandr_${name}`]) {
        expect(evaluate(policy, { tool, input: {}, cwd: '/repo' }).decision, tool).toBe('allow');
      }
    }
    expect(evaluate(policy, { tool: 'mcp__other__run', input: {}, cwd: '/repo' }).decision).toBe('ask');
  });
});

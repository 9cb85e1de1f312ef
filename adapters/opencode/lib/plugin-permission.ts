// The permission step of the generated OpenCode plugin (PERM-HOOK-7). OpenCode
// 1.18 declares a `permission.ask` plugin hook but never calls it (its binary has
// no trigger for it), so the step runs in `tool.execute.before`, which every tool
// awaits: throwing there refuses the call and the message reaches the model.

/** Plugin code (inside the module, after NODE and HOOK): runs the permission node script. */
export const PERMISSION_HELPER = `
// commandr permission: begin — asks commandr's policy (and, if needed, the phone) before a tool runs.
const PERMISSION = HOOK.replace(/hook$/, 'permission');
function permit(data) {
  return new Promise((resolve) => {
    try {
      const child = spawn(NODE, [PERMISSION, JSON.stringify(data)], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (d) => { out += d; });
      child.on('error', () => resolve(undefined));
      child.on('close', () => { try { resolve(out.trim() ? JSON.parse(out) : undefined); } catch { resolve(undefined); } });
    } catch { resolve(undefined); }
  });
}
// commandr permission: end
`;

/** Statement for `tool.execute.before` (after the live event): a deny refuses the call. */
export const PERMISSION_CHECK = `
      // commandr permission: a person's or the policy's deny refuses the call; no answer leaves OpenCode's own rules.
      const verdict = await permit({ session: input.sessionID, cwd, call: input.callID, tool: input.tool, args: output.args || {} });
      if (verdict && verdict.decision === 'deny') throw new Error(verdict.reason);`;

// The permission step of the generated OpenCode plugin (PERM-HOOK-7). OpenCode
// 1.18 declares a `permission.ask` plugin hook but never calls it (its binary has
// no trigger for it), so the step runs in `tool.execute.before`, which every tool
// awaits: throwing there refuses the call and the message reaches the model.

/** Plugin code (inside the module, after NODE and HOOK): runs the permission node script. */
export const PERMISSION_HELPER = `
// commandr permission: begin — asks commandr's policy (and, if needed, the phone) before a tool runs.
const PERMISSION = HOOK.replace(/hook$/, 'permission');
// The call goes on stdin (an argument over 128 KiB cannot be passed at all). A step that cannot
// run or fails gives no verdict, and OpenCode's own default is allow: that is a deny (GUARD-7).
function permit(data) {
  const failed = (why) => ({ decision: 'deny', reason: 'Commandr could not check this tool call against its policy (' + why + '), so it is not run.' });
  return new Promise((resolve) => {
    try {
      const child = spawn(NODE, [PERMISSION], { stdio: ['pipe', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (d) => { out += d; });
      child.stdin.on('error', () => {});
      child.on('error', (error) => resolve(failed(String(error && error.code || error))));
      child.on('close', (code) => {
        if (code !== 0) return resolve(failed('the check exited with ' + code));
        try { resolve(out.trim() ? JSON.parse(out) : undefined); } catch { resolve(failed('its answer was not JSON')); }
      });
      child.stdin.end(JSON.stringify(data));
    } catch (error) { resolve(failed(String(error))); }
  });
}
// commandr permission: end
`;

/** Statement for `tool.execute.before` (after the live event): a deny refuses the call. */
export const PERMISSION_CHECK = `
      // commandr permission: a person's or the policy's deny refuses the call; no answer leaves OpenCode's own rules.
      const verdict = await permit({ session: input.sessionID, cwd, call: input.callID, tool: input.tool, args: output.args || {} });
      if (verdict && verdict.decision === 'deny') throw new Error(verdict.reason);`;

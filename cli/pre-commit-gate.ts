// `pre-commit-gate`: run by the repo's pre-commit hook; blocks an agent's commit
// unless an approval token covers exactly what is staged (GATE-n, GATE-DIGEST-n).
import { runGate } from '../bus/gate';
import { runTool, warnToStderr } from './_shared/tool';

runTool('pre-commit-gate', 'usage: pre-commit-gate    (run from .git/hooks/pre-commit)', async () => {
  const outcome = await runGate();
  outcome.messages.forEach(warnToStderr);
  return outcome.allow ? 0 : 1;
});

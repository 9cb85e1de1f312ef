// `complete <claimed-path> [pass|fail]`: moves a claimed packet to done/ (COMPLETE-n).
import { completePacket } from '../bus/complete';
import { UsageError, runTool } from './_shared/tool';

const USAGE = 'usage: complete <claimed-path> [pass|fail]';

runTool('complete', USAGE, async (args) => {
  const [file, result = 'pass', extra] = args;
  if (!file || extra !== undefined) throw new UsageError('expected a claimed packet path and an optional result');
  if (result !== 'pass' && result !== 'fail') throw new UsageError(`result must be pass or fail, not ${JSON.stringify(result)}`);
  const done = await completePacket(file, result);
  process.stdout.write(`done:${done.path}\n`);
  return 0;
});

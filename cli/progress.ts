// `progress <task-id> "<note>"`: appends one task_progress event (PROGRESS-n).
import { locateBus } from '../bus/locate';
import { appendProgressRenewing } from '../bus/progress';
import { UsageError, runTool, warnToStderr } from './_shared/tool';

const USAGE = 'usage: progress <task-id> "<one-line human-readable note>"';

runTool('progress', USAGE, async (args) => {
  if (args.length !== 2) throw new UsageError('expected exactly a task id and a note');
  // Renews this machine's lease on the task when it holds one (LEASE-3).
  const done = await appendProgressRenewing(locateBus(), args[0]!, args[1]!, process.env.AGENTS_AGENT?.trim() || undefined);
  if (done.warning) warnToStderr(done.warning);
  return 0;
});

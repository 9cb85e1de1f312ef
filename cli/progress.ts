// `progress <task-id> "<note>"`: appends one task_progress event (PROGRESS-n).
import { locateBus } from '../bus/locate';
import { appendProgress } from '../bus/progress';
import { UsageError, runTool } from './_shared/tool';

const USAGE = 'usage: progress <task-id> "<one-line human-readable note>"';

runTool('progress', USAGE, (args) => {
  if (args.length !== 2) throw new UsageError('expected exactly a task id and a note');
  appendProgress(locateBus(), args[0]!, args[1]!, process.env.AGENTS_AGENT?.trim() || undefined);
  return 0;
});

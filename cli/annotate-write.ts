// `annotate-write --bus <dir> --task <id> --turn <n> [--anchor a] [--author a] [--body md|-]` (ANNOT-n).
import { parseArgs } from 'node:util';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeAnnotation } from '../bus/annotations';
import { UsageError, runTool } from './_shared/tool';

const USAGE = 'usage: annotate-write --bus <.agents dir> --task <id> --turn <n> [--anchor <a>] [--author <a>] [--body <markdown>|-]';

runTool('annotate-write', USAGE, (args) => {
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: { bus: { type: 'string' }, task: { type: 'string' }, turn: { type: 'string' }, anchor: { type: 'string' }, author: { type: 'string' }, body: { type: 'string' } },
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { bus, task, turn } = values;
  if (!bus || !task || turn === undefined) throw new UsageError('--bus, --task and --turn are required');
  if (!/^[0-9]{1,4}$/.test(turn)) throw new UsageError(`--turn must be an integer 0..9999, not ${JSON.stringify(turn)}`);
  const body = values.body === '-' ? fs.readFileSync(0, 'utf8') : values.body;
  const written = writeAnnotation(path.resolve(bus), { task, turn: Number(turn), anchor: values.anchor, author: values.author, body });
  process.stdout.write(`annotation:${written.path}\n`);
  return 0;
});

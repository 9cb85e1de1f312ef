// `council <packet>` and `council --diff <git diff args…>|-` (COUNCIL-n): thin
// wrapper over bus/council; prints the verdict line or the diff-mode JSON object.
import { busOfPacket, gitDiffText, runCouncil, runDiffCouncil } from '../bus/council/council';
import { BusError } from '../bus/errors';
import { UsageError, runTool } from './_shared/tool';

const USAGE = [
  'usage: council <path-to-packet-in-claimed-or-done>',
  '       council --diff <git diff arguments…>   (or --diff - to read a unified diff on stdin)',
].join('\n');

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (c: Buffer) => chunks.push(c));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

async function diffMode(args: string[]): Promise<number> {
  const diff = args.length === 1 && args[0] === '-' ? await readStdin() : await gitDiffText(args);
  const result = await runDiffCouncil(diff);
  process.stdout.write(JSON.stringify(result) + '\n');
  return 0;
}

runTool('council', USAGE, async (args) => {
  if (args[0] === '--diff') return diffMode(args.slice(1));
  if (args.length !== 1 || args[0]!.startsWith('-')) throw new UsageError('expected exactly one packet path, or --diff');
  try {
    busOfPacket(args[0]!);
  } catch (error) {
    // A packet that is missing or not under a bus is a usage error (exit 2), not a runtime one.
    if (error instanceof BusError) throw new UsageError(`${error.code}: ${error.message}`);
    throw error;
  }
  const { verdict } = await runCouncil(args[0]!);
  process.stdout.write(`council:${verdict.task}:${verdict.verdict}\n`);
  return 0;
});

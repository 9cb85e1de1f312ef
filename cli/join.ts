// `commandr join <home-url> <code>`: makes this machine a member of a home relay
// (FLEET-n). Verifies the home's key against the fingerprint in the code, proves
// this machine's own key, and records the home; this machine's relay then holds the link.
import * as os from 'node:os';
import { parseArgs } from 'node:util';
import { CommandrError } from '../protocol/wire/errors';
import { MachineName } from '../protocol/wire/fleet';
import { joinHome } from '../relay/fleet/member';
import { defaultDataDir } from '../relay/options';
import { UsageError, runTool } from './_shared/tool';

const USAGE = 'usage: commandr join <home-url> <code> [--name N] [--data DIR]';

runTool('commandr join', USAGE, async (argv) => {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { name: { type: 'string' }, data: { type: 'string' } } });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 2) throw new UsageError('expected the home URL and the join code');
  const name = values.name ?? os.hostname().replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 63);
  if (!MachineName.safeParse(name).success) throw new UsageError(`machine name ${JSON.stringify(name)} must be 1–63 of [A-Za-z0-9._-]`);
  try {
    const home = await joinHome(values.data ?? defaultDataDir(), positionals[0]!, positionals[1]!, name);
    process.stdout.write(`joined:${home.machine} as ${home.name} (home ${home.url}); this machine's relay now links to it\n`);
    return 0;
  } catch (error) {
    if (error instanceof CommandrError) {
      process.stderr.write(`commandr join: ${error.code}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
});

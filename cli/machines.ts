// `commandr machines`: the home's member machines (FLEET-n) — `add` prints a
// one-time join code carrying the home's key fingerprint, `list`, `remove <id>`.
import * as os from 'node:os';
import { parseArgs } from 'node:util';
import { MachineName } from '../protocol/wire/fleet';
import { loadMachineKey } from '../relay/fleet/keys';
import { createJoinCode, listMachines, removeMachine } from '../relay/fleet/machines';
import { defaultDataDir } from '../relay/options';
import { UsageError, runTool } from './_shared/tool';

const USAGE = 'usage: commandr machines add [--name N] | list [--json] | remove <machine-id>   [--data DIR]';

runTool('commandr machines', USAGE, (argv) => {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { name: { type: 'string' }, json: { type: 'boolean' }, data: { type: 'string' } } });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const dataDir = values.data ?? defaultDataDir();
  const [verb, ...rest] = positionals;
  if (verb === 'add' && rest.length === 0) {
    // Without --name the joining machine names itself (its host name), made unique on the home.
    const name = values.name;
    if (name !== undefined && !MachineName.safeParse(name).success) throw new UsageError(`machine name ${JSON.stringify(name)} must be 1–63 of [A-Za-z0-9._-]`);
    const { code, fingerprint, expiresAt } = createJoinCode(dataDir, name);
    process.stdout.write(`${code}\n`);
    process.stderr.write(`home key fingerprint ${fingerprint} (the code carries it; the member checks it)\nvalid until ${new Date(expiresAt).toISOString()}, once. On the other machine run:\n  commandr join <this relay's URL> ${code}\n`);
    return 0;
  }
  if (verb === 'list' && rest.length === 0) {
    const machines = listMachines(dataDir);
    if (values.json) process.stdout.write(JSON.stringify(machines) + '\n');
    else {
      process.stdout.write(`this machine (home) key fingerprint ${loadMachineKey(dataDir).fingerprint} on ${os.hostname()}\n`);
      for (const m of machines) process.stdout.write(`${m.id}  ${m.name}  joined ${m.joinedAt}\n`);
    }
    return 0;
  }
  if (verb === 'remove' && rest.length === 1) {
    if (!removeMachine(dataDir, rest[0]!)) {
      process.stderr.write(`commandr machines: no machine ${rest[0]} (see commandr machines list)\n`);
      return 1;
    }
    process.stdout.write(`removed:${rest[0]}\n`);
    return 0;
  }
  throw new UsageError('expected add, list or remove <machine-id>');
});

// `index refresh [repo…]`: folds the registered (or given) repos' buses into one
// cache file, default ~/.agents/index.json (INDEX-n).
import * as os from 'node:os';
import * as path from 'node:path';
import { version } from '../package.json';
import { refreshIndex } from '../bus/index-fold';
import { readRegistry } from '../bus/init';
import { UsageError, runTool, warnToStderr } from './_shared/tool';

const USAGE = 'usage: index refresh [repo…]    (repos default to $AGENTS_INDEX_REPOS or ~/.agents/repos)';

runTool('index', USAGE, async (args) => {
  const [verb, ...repos] = args;
  if (verb !== 'refresh') throw new UsageError(verb === undefined ? 'missing verb' : `unknown verb ${JSON.stringify(verb)}`);
  const home = path.join(os.homedir(), '.agents');
  const registry = process.env.AGENTS_INDEX_REPOS || path.join(home, 'repos');
  const output = path.resolve(process.env.AGENTS_INDEX_FILE || path.join(home, 'index.json'));
  await refreshIndex({ repos: repos.length > 0 ? repos : readRegistry(registry), output, version, warn: warnToStderr });
  process.stdout.write(`index:${output}\n`);
  return 0;
});

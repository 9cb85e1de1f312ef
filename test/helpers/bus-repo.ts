// A bus-ready git repo in a temp dir, as most relay tests start: `<dir>/repo` on
// `main` with its bus initialised (gate /bin/false, registry `<dir>/registry`) and
// the given packets in its inbox. The caller removes `dir`.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { initRepo } from '../../bus/init';
import { packet } from '../conformance/harness';
import { git } from '../council/fixtures';

export interface BusRepo { dir: string; repo: string; bus: string }

export interface BusRepoOptions {
  /** Inbox packets: ids (each the conformance `packet({ id })`), or each id's whole text. */
  inbox?: string[] | Record<string, string>;
  /** A first commit (README.md) before the bus, for tests that make worktrees or run jobs. */
  commit?: boolean;
}

export function busRepo(prefix: string, options: BusRepoOptions = {}): BusRepo {
  return busRepoIn(fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix))), options);
}

/** The same repo in a directory the caller already has (a world's temp dir): `<dir>/repo`, registry `<dir>/registry`. */
export function busRepoIn(dir: string, options: BusRepoOptions = {}): BusRepo {
  const repo = path.join(dir, 'repo');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  if (options.commit) {
    fs.writeFileSync(path.join(repo, 'README.md'), 'hello\n');
    git(repo, 'add', 'README.md');
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init');
  }
  const { bus } = initRepo(repo, { gateBin: '/bin/false', registryFile: path.join(dir, 'registry') });
  const inbox = Array.isArray(options.inbox) ? Object.fromEntries(options.inbox.map((id) => [id, packet({ id })])) : options.inbox ?? {};
  for (const [id, text] of Object.entries(inbox)) fs.writeFileSync(path.join(bus, 'inbox', `${id}.md`), text);
  return { dir, repo, bus };
}

// Shared by the limits suites: a real git repo with an initialised bus in a temp
// dir, and a real relay on port 0 watching it (registry file in the temp dir too,
// so the user's ~/.agents is never read).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { initRepo } from '../../bus/init';
import { git } from '../council/fixtures';
import { packet } from '../conformance/harness';
import type { RelayOptions } from '../../relay/options';
import { startRelay, tempDir, type TestRelay } from '../relay-core/setup';

export interface TestRepo { root: string; bus: string; log: string }

/** A git repo whose bus holds inbox packets for `tasks`. */
export function makeRepo(tasks: string[] = ['A-1']): TestRepo {
  const dir = fs.realpathSync(tempDir('commandr-limits-'));
  const root = path.join(dir, 'repo');
  fs.mkdirSync(root);
  git(root, 'init', '-q', '-b', 'main');
  const { bus } = initRepo(root, { gateBin: '/bin/false', registryFile: path.join(dir, 'registry') });
  for (const id of tasks) fs.writeFileSync(path.join(bus, 'inbox', `${id}.md`), packet({ id }));
  return { root, bus, log: path.join(bus, 'events.jsonl') };
}

export function startWatching(repo: TestRepo, options: RelayOptions = {}): Promise<TestRelay> {
  const dataDir = options.dataDir ?? tempDir();
  return startRelay({ repos: [repo.root], registryFile: path.join(dataDir, 'registry'), ...options, dataDir });
}

// The ways a shell command can get past the commit gate (GUARD-3): skipping git's
// hooks (`--no-verify`, `commit -n`, `core.hooksPath`, `-c`/`--git-dir` on a
// commit), environment that points git or a hook manager elsewhere (`GIT_DIR`,
// `GIT_INDEX_FILE`, `GIT_CONFIG_*`, `HUSKY=0`, `SKIP`, `COMMANDR_*`, `HOME`), and plumbing
// that writes commits or refs with no hook at all (`commit-tree`, `update-ref`).
import { type Invocation, programOf } from './command';

export interface Finding {
  /** The rule id printed by `commandr policy check`. */
  rule: string;
  why: string;
}

/** Environment variables that move git's hooks, index, config or the gate itself (HOME and XDG_CONFIG_HOME move the global git config and ~/.commandr the gate trusts). */
const HOOK_ENV = /^(GIT_DIR|GIT_WORK_TREE|GIT_INDEX_FILE|GIT_CONFIG\w*|GIT_EXEC_PATH|GIT_OBJECT_DIRECTORY|GIT_ALTERNATE_OBJECT_DIRECTORIES|GIT_COMMON_DIR|GIT_TEMPLATE_DIR|GIT_NAMESPACE|HUSKY\w*|SKIP|PRE_COMMIT\w*|LEFTHOOK\w*|OVERCOMMIT\w*|COMMANDR_\w*|AGENTS_\w*|HOME|XDG_CONFIG_HOME)$/;
/** Sub-commands that make a commit (so global config overrides could skip its hooks). */
const COMMITTING = new Set(['commit', 'merge', 'am', 'rebase', 'cherry-pick', 'revert', 'pull', 'push', 'stash', 'notes']);
/** Plumbing that writes commits or moves refs without running any hook. */
const PLUMBING = new Set(['commit-tree', 'update-ref', 'fast-import', 'filter-branch', 'filter-repo', 'replace']);
/** Global options that point git at other config, hooks, or repository files. */
const REDIRECTING = /^(-c|--config-env|--git-dir|--work-tree|--exec-path|--namespace|--bare|--super-prefix)(=|$)|^-c./;
/** `git commit` short options that take a value (so a following `-n` is that value). */
const COMMIT_VALUE_SHORT = new Set(['m', 'F', 'c', 'C', 't']);
const COMMIT_VALUE_LONG = /^--(message|file|author|date|reuse-message|reedit-message|fixup|squash|template|cleanup|trailer|pathspec-from-file)$/;

const deny = (rule: string, why: string): Finding => ({ rule, why });

/** The hook var an assignment (`NAME=…`) or `export NAME` sets, if any. */
function hookVar(word: string): string | undefined {
  const name = word.split('=', 1)[0]!;
  return HOOK_ENV.test(name) ? name : undefined;
}

/** A way this invocation skips or moves the commit gate, or undefined. */
export function hookBypass(inv: Invocation): Finding | undefined {
  for (const a of inv.assigns) {
    const name = hookVar(a);
    if (name) return deny('hooks.env', `setting ${name} can point git or its hooks elsewhere and skip the commit gate`);
  }
  const program = programOf(inv);
  const args = inv.argv.slice(1).map((w) => w.text);
  if (['export', 'declare', 'typeset', 'readonly', 'local', 'set', 'setenv'].includes(program)) {
    const name = args.map(hookVar).find(Boolean);
    if (name) return deny('hooks.env', `exporting ${name} can point git or its hooks elsewhere and skip the commit gate`);
  }
  const all = inv.argv.map((w) => w.text);
  if (all.some((w) => w === '--no-verify' || w.startsWith('--no-verify='))) return deny('hooks.no-verify', '`--no-verify` skips the commit gate and every other git hook');
  if (all.some((w) => /core\.hookspath/i.test(w))) return deny('hooks.hooks-path', 'changing core.hooksPath moves git hooks away from the commit gate');
  if (program !== 'git') return undefined;
  return gitBypass(args);
}

function gitBypass(args: string[]): Finding | undefined {
  let i = 0;
  const redirecting: string[] = [];
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('-')) break;
    if (REDIRECTING.test(a)) redirecting.push(a.split('=', 1)[0]!.slice(0, 2) === '-c' ? '-c' : a.split('=', 1)[0]!);
    if (/^(-c|-C|--config-env|--git-dir|--work-tree|--namespace|--exec-path|--super-prefix)$/.test(a)) i++;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === undefined) return undefined;
  if (rest.some((w) => /^--no-v(e(r(i(fy?)?)?)?)?$/.test(w))) return deny('hooks.no-verify', `\`${sub} ${rest.find((w) => w.startsWith('--no-v'))}\` skips git hooks`);
  if (redirecting.length > 0 && COMMITTING.has(sub)) {
    return deny('hooks.git-options', `\`git ${redirecting[0]} … ${sub}\` can run ${sub} with other config or hooks than the commit gate's`);
  }
  if (PLUMBING.has(sub)) return deny('hooks.plumbing', `\`git ${sub}\` writes commits or refs without running the commit gate`);
  if (sub === 'commit' && commitSkipsHooks(rest)) return deny('hooks.no-verify', '`git commit -n` skips the commit gate and every other git hook');
  return undefined;
}

/** True when `git commit`'s own options include `-n` (alone or bundled, e.g. `-anm`). */
function commitSkipsHooks(args: string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') return false;
    if (COMMIT_VALUE_LONG.test(a)) { i++; continue; }
    if (!a.startsWith('-') || a.startsWith('--')) continue;
    for (let j = 1; j < a.length; j++) {
      const flag = a[j]!;
      if (flag === 'n') return true;
      if (COMMIT_VALUE_SHORT.has(flag)) {
        if (j === a.length - 1) i++;
        break;
      }
    }
  }
  return false;
}

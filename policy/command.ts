// What one shell command line really runs (GUARD-2): every simple command of the
// parsed line, with wrappers peeled off (`env`, `nice`, `sh -c '…'`, `eval`,
// `xargs`, `find -exec`, substitutions), its environment assignments kept, so the
// policy can look at every program that will run — not at the first word of the line.
import { parseCommandLine, type Redirect, type Word } from './shell';

export interface Invocation {
  /** `NAME=value` words set for this command (prefix assignments or `env`). */
  assigns: string[];
  /** The program and its arguments, quotes removed. */
  argv: Word[];
  redirects: Redirect[];
  /** Wrappers peeled off on the way (`env`, `sh -c`, …), outermost first. */
  via: string[];
  /** Runs as a later stage of a pipeline (reads the previous stage's output). */
  piped: boolean;
  /** Came from a substitution or a string run by another program. */
  nested: boolean;
}

export interface CommandView {
  invocations: Invocation[];
  /** Why some part cannot be read statically; undefined when every part is plain. */
  opaque?: string;
}

const ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*=/;
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'busybox', 'fish']);
/** Wrappers whose options take no value, then the command. */
const PLAIN_WRAPPERS = new Set(['nohup', 'command', 'builtin', 'exec', 'setsid', 'chronic', 'unbuffer', 'sudo', 'doas', 'time', 'stdbuf', 'ionice', 'caffeinate']);
const MAX_DEPTH = 6;

const plain = (text: string): Word => ({ text, glob: false, expands: false });

/** Every program the line runs, wrappers and nested strings included. */
export function viewCommand(line: string): CommandView {
  const view: CommandView = { invocations: [] };
  collect(line, view, 0, false);
  return view;
}

function collect(line: string, view: CommandView, depth: number, nested: boolean): void {
  if (depth > MAX_DEPTH) { view.opaque ??= 'the command nests shells too deeply to read'; return; }
  const parsed = parseCommandLine(line);
  if (parsed.opaque) view.opaque ??= parsed.opaque;
  for (const inner of parsed.substitutions) {
    view.opaque ??= 'the command contains a substitution whose output the policy cannot know';
    collect(inner, view, depth + 1, true);
  }
  for (const simple of parsed.commands) {
    peel({ assigns: [], argv: simple.words, redirects: simple.redirects, via: [], piped: simple.stage > 0, nested }, view, depth);
  }
}

/** Strips leading assignments and wrappers; strings run by a shell are parsed in turn. */
function peel(inv: Invocation, view: CommandView, depth: number): void {
  let argv = inv.argv;
  const assigns = [...inv.assigns];
  const via = [...inv.via];
  while (argv.length > 0 && ASSIGN.test(argv[0]!.text)) assigns.push(argv.shift()!.text);
  for (let guard = 0; argv.length > 0 && guard < 20; guard++) {
    const program = basename(argv[0]!.text);
    const rest = argv.slice(1);
    if (program === 'env') {
      via.push('env');
      let i = 0;
      for (; i < rest.length; i++) {
        const w = rest[i]!.text;
        if (w === '--') { i++; break; }
        if (w === '-u' || w === '-C' || w === '--unset' || w === '--chdir') { i++; continue; }
        if (w === '-S' || w === '--split-string' || w.startsWith('--split-string=') || (w.startsWith('-S') && w.length > 2)) {
          const text = w.startsWith('--split-string=') ? w.slice(15) : w.length > 2 && w.startsWith('-S') ? w.slice(2) : rest[++i]?.text ?? '';
          collect([text, ...rest.slice(i + 1).map((x) => shellQuote(x.text))].join(' '), view, depth + 1, true);
          view.invocations.push({ ...inv, assigns, argv: [plain('env')], via });
          return;
        }
        if (w.startsWith('-')) continue;
        if (ASSIGN.test(w)) { assigns.push(w); continue; }
        break;
      }
      argv = rest.slice(i);
    } else if (PLAIN_WRAPPERS.has(program)) {
      via.push(program);
      let i = 0;
      while (i < rest.length && rest[i]!.text.startsWith('-')) i += program === 'sudo' && /^-[ugCDhpRrTt]$/.test(rest[i]!.text) ? 2 : 1;
      argv = rest.slice(i);
    } else if (program === 'nice' || program === 'timeout' || program === 'watch') {
      via.push(program);
      let i = 0;
      while (i < rest.length && rest[i]!.text.startsWith('-')) i += /^-(n|s|k|-signal|-kill-after|-interval)$/.test(rest[i]!.text) ? 2 : 1;
      if (program === 'timeout' && i < rest.length) i++; // the duration
      argv = rest.slice(i);
    } else if (SHELLS.has(program) || program === 'eval' || program === 'source' || program === '.') {
      const script = shellScript(program, rest);
      if (script !== undefined) {
        via.push(program);
        view.invocations.push({ ...inv, assigns, argv: [argv[0]!], via });
        collect(script, view, depth + 1, true);
        return;
      }
      break;
    } else if (program === 'xargs' || program === 'parallel') {
      via.push(program);
      let i = 0;
      while (i < rest.length && rest[i]!.text.startsWith('-')) i += /^-[aEedIiLlnPs]$/.test(rest[i]!.text) ? 2 : 1;
      if (i >= rest.length) break;
      view.opaque ??= `\`${program}\` runs a command with arguments the policy cannot see`;
      view.invocations.push({ ...inv, assigns, argv: [argv[0]!], via: [...via] });
      argv = rest.slice(i);
      inv = { ...inv, nested: true };
    } else if (program === 'find') {
      const exec = rest.findIndex((w) => /^-(exec|execdir|ok|okdir)$/.test(w.text));
      if (exec < 0) break;
      const end = rest.findIndex((w, i) => i > exec && (w.text === ';' || w.text === '+'));
      view.invocations.push({ ...inv, assigns, argv, via });
      peel({ ...inv, assigns: [], argv: rest.slice(exec + 1, end < 0 ? undefined : end), redirects: [], via: [...via, 'find'], nested: true }, view, depth + 1);
      return;
    } else break;
  }
  view.invocations.push({ ...inv, assigns, argv, via });
}

/** The script a shell or `eval` runs, or undefined when it reads a file or stdin. */
function shellScript(program: string, rest: Word[]): string | undefined {
  if (program === 'eval') return rest.map((w) => w.text).join(' ');
  if (program === 'source' || program === '.') return undefined;
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i]!.text;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(w)) return rest[i + 1]?.text ?? '';
    if (!w.startsWith('-') && !w.startsWith('+')) return undefined;
  }
  return undefined;
}

const basename = (program: string) => program.slice(program.lastIndexOf('/') + 1);
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The program name of an invocation (basename), or '' when it has none. */
export function programOf(inv: Invocation): string {
  return inv.argv[0] ? basename(inv.argv[0].text) : '';
}

/** The invocation as one plain line (for prefix matching and messages). */
export function invocationText(inv: Invocation): string {
  return [...inv.assigns, ...inv.argv.map((w) => w.text)].join(' ');
}

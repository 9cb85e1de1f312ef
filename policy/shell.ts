// A POSIX-shell command line as the policy needs to see it (GUARD-1): words with
// their quotes removed, split into simple commands at every operator (`&&`, `||`,
// `;`, `&`, `|`, newline, parentheses), with redirections and the text of every
// substitution (`$(…)`, backticks, `<(…)`) kept so each can be judged on its own.
// It never runs anything; what it cannot read is flagged `opaque` so the policy asks.

export interface Word {
  /** The word with quotes and escapes removed (substitutions left as written). */
  text: string;
  /** Has an unquoted glob character (`*`, `?`, `[`). */
  glob: boolean;
  /** Has a `$` expansion (outside single quotes) or a substitution. */
  expands: boolean;
}

export interface Redirect {
  op: string;
  target?: Word;
}

export interface Simple {
  words: Word[];
  redirects: Redirect[];
  /** Index of the pipeline it belongs to and its place there (0 = first stage). */
  pipeline: number;
  stage: number;
}

export interface ParsedLine {
  commands: Simple[];
  /** Inner text of each `$(…)`, backtick, `<(…)`/`>(…)` substitution. */
  substitutions: string[];
  /** Why the line cannot be read statically (heredoc, unbalanced quote…), if so. */
  opaque?: string;
}

const OPERATOR_CHARS = new Set([';', '&', '|', '\n', '(', ')']);
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}', 'time']);

class Scanner {
  i = 0;
  constructor(readonly s: string) {}
  get c(): string | undefined { return this.s[this.i]; }
  peek(n = 1): string | undefined { return this.s[this.i + n]; }
}

/** Finds the end of a `$(`/`<(` group starting after its `(`, honouring nesting and quotes. */
function closeParen(s: string, from: number): number {
  let depth = 1;
  let quote: string | undefined;
  for (let i = from; i < s.length; i++) {
    const c = s[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '\\') i++;
    else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

export function parseCommandLine(line: string): ParsedLine {
  const out: ParsedLine = { commands: [], substitutions: [] };
  const sc = new Scanner(line.replace(/\\\n/g, ''));
  let words: Word[] = [];
  let redirects: Redirect[] = [];
  let pipeline = 0;
  let stage = 0;
  let pendingRedirect: Redirect | undefined;

  const finish = (op: string) => {
    if (pendingRedirect) { out.opaque ??= `a redirection (${pendingRedirect.op}) has no target`; pendingRedirect = undefined; }
    if (words.length > 0 || redirects.length > 0) out.commands.push({ words, redirects, pipeline, stage });
    words = [];
    redirects = [];
    if (op === '|' || op === '|&') stage++;
    else { pipeline++; stage = 0; }
  };

  const readWord = (): Word => {
    let text = '';
    let glob = false;
    let expands = false;
    for (;;) {
      const c = sc.c;
      if (c === undefined || c === ' ' || c === '\t' || OPERATOR_CHARS.has(c) || c === '<' || c === '>') break;
      if (c === '\\') { text += sc.peek() ?? ''; sc.i += 2; continue; }
      if (c === "'") {
        const end = sc.s.indexOf("'", sc.i + 1);
        if (end < 0) { out.opaque ??= 'a quote is not closed'; text += sc.s.slice(sc.i + 1); sc.i = sc.s.length; break; }
        text += sc.s.slice(sc.i + 1, end);
        sc.i = end + 1;
        continue;
      }
      if (c === '"') {
        sc.i++;
        while (sc.c !== undefined && sc.c !== '"') {
          if (sc.c === '\\' && sc.peek() !== undefined && '"\\$`'.includes(sc.peek()!)) { text += sc.peek(); sc.i += 2; continue; }
          if (sc.c === '$' || sc.c === '`') { expands = true; text += readExpansion(); continue; }
          text += sc.c;
          sc.i++;
        }
        if (sc.c === undefined) out.opaque ??= 'a quote is not closed';
        sc.i++;
        continue;
      }
      if (c === '$' || c === '`') { expands = true; text += readExpansion(); continue; }
      if (c === '*' || c === '?' || c === '[') glob = true;
      text += c;
      sc.i++;
    }
    return { text, glob, expands };
  };

  /** `$name`, `${…}`, `$(…)`, `$((…))` or a backtick group: recorded, returned as written. */
  const readExpansion = (): string => {
    const start = sc.i;
    if (sc.c === '`') {
      const end = sc.s.indexOf('`', sc.i + 1);
      if (end < 0) { out.opaque ??= 'a backtick is not closed'; sc.i = sc.s.length; return sc.s.slice(start); }
      out.substitutions.push(sc.s.slice(sc.i + 1, end));
      sc.i = end + 1;
      return sc.s.slice(start, sc.i);
    }
    const next = sc.peek();
    if (next === '(') {
      const end = closeParen(sc.s, sc.i + 2);
      if (end < 0) { out.opaque ??= 'a $( is not closed'; sc.i = sc.s.length; return sc.s.slice(start); }
      out.substitutions.push(sc.s.slice(sc.i + 2, end));
      sc.i = end + 1;
      return sc.s.slice(start, sc.i);
    }
    if (next === '{') {
      const end = sc.s.indexOf('}', sc.i + 2);
      sc.i = end < 0 ? sc.s.length : end + 1;
      return sc.s.slice(start, sc.i);
    }
    sc.i++;
    while (sc.c !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(sc.c)) {
      const special = /[@*#?$!-]/.test(sc.c);
      sc.i++;
      if (special || /[0-9]/.test(sc.s[start + 1]!)) break;
    }
    return sc.s.slice(start, sc.i);
  };

  while (sc.i < sc.s.length) {
    const c = sc.c!;
    if (c === ' ' || c === '\t') { sc.i++; continue; }
    if (c === '#' && words.length === 0 && !pendingRedirect) {
      const nl = sc.s.indexOf('\n', sc.i);
      sc.i = nl < 0 ? sc.s.length : nl;
      continue;
    }
    if ((c === '<' || c === '>') && sc.peek() === '(') {
      const end = closeParen(sc.s, sc.i + 2);
      if (end < 0) { out.opaque ??= 'a process substitution is not closed'; break; }
      out.substitutions.push(sc.s.slice(sc.i + 2, end));
      words.push({ text: sc.s.slice(sc.i, end + 1), glob: false, expands: true });
      sc.i = end + 1;
      continue;
    }
    const redirect = /^(?:[0-9]*|&)(?:>>|>\||>&|<<<|<<-?|<>|<&|>|<)/.exec(sc.s.slice(sc.i));
    if (redirect && (c === '<' || c === '>' || c === '&' || /[0-9]/.test(c)) && (c !== '&' || sc.peek() === '>')) {
      const op = redirect[0];
      sc.i += op.length;
      if (op.endsWith('<<') || op.endsWith('<<-')) out.opaque ??= 'a here-document cannot be read by the policy';
      pendingRedirect = { op };
      redirects.push(pendingRedirect);
      continue;
    }
    if (OPERATOR_CHARS.has(c)) {
      let op = c;
      if ((c === '&' || c === '|') && sc.peek() === c) op = c + c;
      else if (c === '|' && sc.peek() === '&') op = '|&';
      sc.i += op.length;
      if (op === '(' && words.length > 0) out.opaque ??= 'a function definition or array cannot be read by the policy';
      finish(op);
      continue;
    }
    const word = readWord();
    if (pendingRedirect) { pendingRedirect.target = word; pendingRedirect = undefined; continue; }
    if (words.length === 0 && RESERVED.has(word.text) && !word.expands) continue;
    words.push(word);
  }
  finish(';');
  return out;
}

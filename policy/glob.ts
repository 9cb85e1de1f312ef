// Glob patterns of the policy file and of a packet's `scope` (`src/**`, `*.ts`,
// `{a,b}`), turned into anchored regular expressions. Forty lines, no library.

const compiled = new Map<string, RegExp>();

/** `**` spans directories, `*` and `?` stay inside one, `{a,b}` is a choice (compiled once per pattern). */
export function globToRegExp(glob: string): RegExp {
  let hit = compiled.get(glob);
  if (!hit) {
    if (compiled.size >= 4096) compiled.clear();
    hit = compile(glob);
    compiled.set(glob, hit);
  }
  return hit;
}

function compile(glob: string): RegExp {
  let out = '';
  let depth = 0;
  // Unbalanced braces (a shell word such as `{a,b`) are literal text, never a broken pattern.
  const braces = balancedBraces(glob);
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slashAfter = glob[i + 2] === '/';
      out += slashAfter ? '(?:.*/)?' : '.*';
      i += slashAfter ? 2 : 1;
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '{' && braces) { out += '(?:'; depth++; }
    else if (c === '}' && depth > 0) { out += ')'; depth--; }
    else if (c === ',' && depth > 0) out += '|';
    else out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

function balancedBraces(glob: string): boolean {
  let depth = 0;
  for (const c of glob) {
    if (c === '{') depth++;
    else if (c === '}' && --depth < 0) return false;
  }
  return depth === 0;
}

/** True when the repo-relative `file` matches `glob`; a trailing `/` or bare dir matches what is under it. */
export function matchesGlob(file: string, glob: string): boolean {
  const pattern = glob.replace(/^\.\//, '');
  if (globToRegExp(pattern).test(file)) return true;
  const dir = pattern.replace(/\/+$/, '');
  return !/[*?{]/.test(dir) && (file === dir || file.startsWith(`${dir}/`));
}

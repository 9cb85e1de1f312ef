// The commander's CLAUDE.md (CMDR-DOC-n): written by the platform before the first
// session, then the commander's own living document. The platform only ever edits
// two of its sections (`## Reference paths`, `## This session`), keeping the rest.
export const REFERENCES_HEADING = '## Reference paths';
export const SESSION_HEADING = '## This session';
export const HANDLED_FILE = 'handled.md';

export type SessionKind = 'first' | 'replacement';

export function sessionSection(kind: SessionKind): string {
  if (kind === 'first') {
    return [
      SESSION_HEADING,
      '',
      'This is your FIRST turn. This commander was just created: nothing has been handled yet,',
      'and this directory holds only what the platform wrote. Orient on the reference paths',
      'above, then tell the person what you found and what you propose to do.',
    ].join('\n');
  }
  return [
    SESSION_HEADING,
    '',
    'This is a REPLACEMENT session, not your first turn. An earlier session of this commander',
    `ended; everything it wrote is still here. Read \`${HANDLED_FILE}\` and your own notes and`,
    'scripts in this directory before doing anything, and carry on from where it stopped.',
  ].join('\n');
}

export function renderClaudeMd(name: string, id: string, dir: string, references: string[]): string {
  return [
    `# Commander: ${name}`,
    '',
    `You are the commander "${name}" (id ${id}). This directory, ${dir}, is where you live —`,
    'not what you work on.',
    '',
    REFERENCES_HEADING,
    '',
    ...references.map((p) => `- ${p}`),
    '',
    '## Standing guidance',
    '',
    '- The interesting material is at the reference paths above, not in this directory. Read',
    '  them before you ask anything.',
    '- This directory is yours: keep your scripts, procedures and notes here, and extend this',
    '  CLAUDE.md as you learn the job. It is read again at the start of every session.',
    `- Record every item you have handled in \`${HANDLED_FILE}\` here (one line each: what, when,`,
    '  outcome), so a later session never repeats work.',
    `- To operate on another place, add its absolute path as a \`- /path\` line under`,
    `  "${REFERENCES_HEADING}"; the platform picks it up after your turn (only inside the roots`,
    '  the person allowed).',
    '- When you need the person, end your turn with a line `NOT READY: <what you need>`.',
    '',
    sessionSection('first'),
    '',
  ].join('\n');
}

interface Section {
  start: number;
  end: number;
}

function findSection(lines: string[], heading: string): Section | null {
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start === -1) return null;
  let end = start + 1;
  while (end < lines.length && !/^#{1,2} /.test(lines[end]!)) end += 1;
  return { start, end };
}

/** Replaces (or appends) the `## This session` section. */
export function withSessionKind(doc: string, kind: SessionKind): string {
  const lines = doc.split('\n');
  const section = findSection(lines, SESSION_HEADING);
  const replacement = [...sessionSection(kind).split('\n'), ''];
  if (section === null) return `${doc.trimEnd()}\n\n${replacement.join('\n')}`;
  lines.splice(section.start, section.end - section.start, ...replacement);
  return lines.join('\n');
}

/** Adds `- <path>` to the reference list unless it is there already. */
export function withReference(doc: string, reference: string): string {
  if (referencesIn(doc).includes(reference)) return doc;
  const lines = doc.split('\n');
  const section = findSection(lines, REFERENCES_HEADING);
  if (section === null) return `${doc.trimEnd()}\n\n${REFERENCES_HEADING}\n\n- ${reference}\n`;
  let last = section.end;
  while (last > section.start + 1 && lines[last - 1]!.trim() === '') last -= 1;
  lines.splice(last, 0, `- ${reference}`);
  return lines.join('\n');
}

/** The list items under `## Reference paths`, backticks and trailing notes stripped. */
export function referencesIn(doc: string): string[] {
  const lines = doc.split('\n');
  const section = findSection(lines, REFERENCES_HEADING);
  if (section === null) return [];
  const out: string[] = [];
  for (const line of lines.slice(section.start + 1, section.end)) {
    const m = /^\s*[-*]\s+`?([^`]+?)`?(?:\s+[—-]\s.*)?\s*$/.exec(line);
    if (m) out.push(m[1]!.trim());
  }
  return out;
}

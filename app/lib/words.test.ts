// One vocabulary (protocol/spec/vocabulary.md): every .ts/.tsx under app/ is parsed with the
// TypeScript compiler and the words a person can see (JSX text, strings given to visible attributes,
// string and template literals used as values) are checked against the banned synonyms. Identifiers,
// import paths, comments, test ids, class names and compared values are not user-visible and not checked.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { clock, clockFull } from './clock';
import { AGENT_NAME, agentName, claimant, mergeInto, NOTE, STAGE_WORD, verdictWord } from './words';
import { TASK_STAGES } from '../../protocol/wire/views';

const APP = path.resolve(__dirname, '..');

/** JSX attributes whose value a person sees or hears. */
const VISIBLE_ATTRS = new Set(['aria-label', 'aria-description', 'aria-roledescription', 'aria-valuetext', 'title', 'placeholder', 'alt', 'label']);

interface Finding { rule: string; file: string; line: number; text: string; why: string }
interface Text { text: string; node: ts.Node; jsx: boolean }

interface Ban { rule: string; why: string; test(t: Text): boolean }

/** Prose: JSX text, or a string with a space in it (a one-word string is a key, a kind, an id). */
const prose = (t: Text) => t.jsx || /\s/.test(t.text.trim());
/** A command in backticks or a <code>-like fragment ("run `claude login`") names the program, not the agent. */
const withoutCommands = (s: string) => s.replace(/`[^`]*`/g, '').replace(/\b(?:claude|opencode)\s+(?:login|auth|--?\w+|run)\b/g, '').replace(/\bcommandr sandbox -- \w+/g, '');

export const BANS: Ban[] = [
  { rule: 'VOCAB-1', why: 'the word is "Note" / "Add note", not Annotate/Annotation', test: (t) => /\bAnnotat/.test(t.text) || (prose(t) && /\bannotat/i.test(t.text)) },
  { rule: 'VOCAB-1', why: 'the word is "Note", not Comment', test: (t) => /\bComment/.test(t.text) || (prose(t) && /\bcomment/i.test(t.text)) },
  { rule: 'VOCAB-1', why: 'the action is "Add note", not "Add a note" / "Note for the agent"', test: (t) => /\badd a note\b/i.test(t.text) || /^\s*Note for the agent\s*$/.test(t.text) },
  { rule: 'VOCAB-2', why: 'the state is "Awaiting approval", not "Needs approval"', test: (t) => /\bneeds? (?:an )?approval\b/i.test(t.text) },
  { rule: 'VOCAB-3', why: 'verdicts are PASS / FAIL in capitals', test: (t) => t.jsx && /^\s*(?:pass|fail|Pass|Fail)\s*$/.test(t.text) },
  { rule: 'VOCAB-4', why: 'agents are named "Claude Code" and "OpenCode" as their makers write them', test: (t) => prose(t) && (/\b(?:claude|opencode|Opencode|openCode)\b/.test(withoutCommands(t.text)) || /\bClaude\b(?! Code)/.test(withoutCommands(t.text)) || /\bOpen Code\b/i.test(t.text)) },
  { rule: 'VOCAB-5', why: 'the action is "Start commander"', test: (t) => /\bstart a commander\b/i.test(t.text) },
];

/** Texts of a source file a person can see, with where they are. */
function visibleTexts(sf: ts.SourceFile): Text[] {
  const out: Text[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isLiteralTypeNode(node) || ts.isImportTypeNode(node)) return;
    if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) return;
    if (ts.isJsxAttribute(node)) {
      const name = node.name.getText(sf);
      if (!VISIBLE_ATTRS.has(name)) return;
      if (node.initializer && ts.isStringLiteral(node.initializer)) { out.push({ text: node.initializer.text, node: node.initializer, jsx: true }); return; }
    }
    if (ts.isJsxText(node)) {
      if (node.text.trim()) out.push({ text: node.text, node, jsx: true });
      return;
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const p = node.parent;
      const keyOrCompared = (ts.isPropertyAssignment(p) && p.name === node) || ts.isElementAccessExpression(p) || ts.isCaseClause(p)
        || (ts.isBinaryExpression(p) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(p.operatorToken.kind))
        || ts.isPropertyAccessExpression(p);
      if (!keyOrCompared) out.push({ text: node.text, node, jsx: false });
      return;
    }
    if (ts.isTemplateExpression(node)) {
      // The literal parts joined with a placeholder, so "Add a ${x} note" reads as one string.
      const text = node.head.text + node.templateSpans.map((s) => `\u2026${s.literal.text}`).join('');
      out.push({ text, node, jsx: false });
      node.templateSpans.forEach((s) => visit(s.expression));
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Raw values shown as they are: a bus state or a lowercase verdict in a JSX child (VOCAB-2, VOCAB-3). */
function rawShown(sf: ts.SourceFile, file: string): Finding[] {
  const out: Finding[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      const e = node.expression;
      if (ts.isPropertyAccessExpression(e) && ['result', 'verdict'].includes(e.name.text)) {
        out.push(at(sf, file, node, 'VOCAB-3', 'a verdict is shown through verdictWord() (PASS / FAIL)'));
      }
      if (ts.isPropertyAccessExpression(e) && e.name.text === 'state' && /\btask\??$/.test(e.expression.getText(sf))) {
        out.push(at(sf, file, node, 'VOCAB-2', 'a task is shown by its stage word (STAGE_WORD), not its raw bus state'));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Times are formatted by app/lib/clock.ts only (VOCAB-7). */
function timeFormatting(sf: ts.SourceFile, file: string): Finding[] {
  if (file === 'lib/clock.ts') return [];
  const out: Finding[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && ['toLocaleTimeString', 'toLocaleDateString', 'hour12', 'hourCycle', 'DateTimeFormat', 'getHours'].includes(node.text)) {
      out.push(at(sf, file, node, 'VOCAB-7', `${node.text}: times are formatted by clock()/clockFull() in app/lib/clock.ts only`));
    }
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'toLocaleString' && /\bDate\b/.test(node.expression.getText(sf))) {
      out.push(at(sf, file, node, 'VOCAB-7', 'a date\'s toLocaleString: use clockFull() from app/lib/clock.ts'));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function at(sf: ts.SourceFile, file: string, node: ts.Node, rule: string, why: string): Finding {
  const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
  return { rule, file, line, text: node.getText(sf).slice(0, 80), why };
}

/** Every finding in one source text (`file` is its path under app/). */
export function scan(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Finding[] = [];
  for (const t of visibleTexts(sf)) {
    for (const ban of BANS) if (ban.test(t)) found.push({ ...at(sf, file, t.node, ban.rule, ban.why), text: t.text.trim().slice(0, 80) });
  }
  return [...found, ...rawShown(sf, file), ...timeFormatting(sf, file)];
}

function appFiles(dir = APP): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...appFiles(p));
    // Tests are not screens: they name the banned words to check they are gone.
    else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

const report = (fs: Finding[]) => fs.map((f) => `app/${f.file}:${f.line} ${f.rule} ${JSON.stringify(f.text)}: ${f.why}`).join('\n');

describe('one vocabulary in app/ (protocol/spec/vocabulary.md)', () => {
  it('VOCAB-1 VOCAB-2 VOCAB-3 VOCAB-4 VOCAB-5 VOCAB-7: no banned synonym in any user-visible string of app/ (file:line of each)', () => {
    const files = appFiles();
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((p) => scan(path.relative(APP, p).split(path.sep).join('/'), readFileSync(p, 'utf8')));
    expect(report(found), 'banned words in app/').toBe('');
  });

  it('VOCAB-8: the scan finds a planted banned word in a user-visible place, and only there', () => {
    const planted = [
      'import { annotate } from "./annotate";',
      'export function AnnotateButton({ onAnnotate }: { onAnnotate(): void }) {',
      '  // Annotate: a comment is not user-visible',
      '  const kind = "annotate"; if (kind === "comment") return null;',
      '  return <div data-testid="diff-comment" className="annotate">',
      '    <button aria-label={`Annotate line ${1}`} onClick={onAnnotate}>Comment</button>',
      '    <span title="Needs approval">Add a note</span>',
      '    <p>{task.result} {task.state}</p>',
      '    <p>Run by claude</p>',
      '    <h2>Start a commander</h2>',
      '    <time>{new Date().toLocaleTimeString()}</time>',
      '    <p>{"Run `claude login` first"}</p>',
      '    <i>{`${d.getHours()}:${d.getMinutes()}`}</i>',
      '  </div>;',
      '}',
    ].join('\n');
    const found = scan('planted/Planted.tsx', planted).map((f) => `${f.line} ${f.rule}`).sort();
    expect(found).toEqual([
      '10 VOCAB-5', // Start a commander
      '11 VOCAB-7', // toLocaleTimeString
      '13 VOCAB-7', // a hand-made HH:MM
      '6 VOCAB-1', // aria-label Annotate line
      '6 VOCAB-1', // Comment
      '7 VOCAB-1', // Add a note
      '7 VOCAB-2', // Needs approval
      '8 VOCAB-2', // {task.state}
      '8 VOCAB-3', // {task.result}
      '9 VOCAB-4', // claude
    ]);
    // Lines 1-5 (import path, identifiers, a code comment, compared values, test ids, class names) and
    // line 12 (a command in backticks) are not flagged.
  });

  it('VOCAB-2: one word for every stage of the relay; none is the raw stage id', () => {
    for (const s of TASK_STAGES) {
      expect(STAGE_WORD[s], s).toMatch(/^[A-Z]/);
    }
    expect(new Set(Object.values(STAGE_WORD)).size).toBe(TASK_STAGES.length);
  });

  it('VOCAB-1 VOCAB-3 VOCAB-4 VOCAB-6: the words themselves', () => {
    expect(NOTE.add).toBe('Add note');
    expect(verdictWord('pass')).toBe('PASS');
    expect(verdictWord('failed')).toBe('FAIL');
    expect(verdictWord('PASS')).toBe('PASS');
    expect(agentName('claude')).toBe(AGENT_NAME.claude);
    expect(agentName('opencode')).toBe('OpenCode');
    expect(mergeInto('main')).toBe('Merge into main');
  });

  it('VOCAB-7: times are in the person\'s locale, as Intl formats them, 12- or 24-hour as the locale says', () => {
    const at = new Date(2026, 11, 3, 14, 2, 0);
    expect(clock(at, new Date(2026, 11, 3, 20, 0))).toBe(new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(at));
    expect(clock(at, new Date(2026, 11, 5, 9, 0))).toContain(String(at.getDate()));
    expect(clockFull(at)).toContain('2026');
  });
});

describe('claimant', () => {
  it('REVIEW-1: a claim owner <host>_<pid> (CLAIM-3) reads as the machine and the process; anything else as it is', () => {
    expect(claimant('demo-host_4242')).toBe('demo-host (process 4242)');
    expect(claimant('my_laptop_77')).toBe('my_laptop (process 77)');
    expect(claimant('someone')).toBe('someone');
  });
});

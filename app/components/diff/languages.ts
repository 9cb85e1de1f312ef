// Which highlight.js language a path gets; tiny, so rows can ask without loading highlight.js.

const EXTENSIONS: Record<string, string> = {
  ts: 'typescript', tsx: 'typescript', mts: 'typescript', cts: 'typescript',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript',
  json: 'json', css: 'css', html: 'xml', xml: 'xml', svg: 'xml', md: 'markdown',
  py: 'python', go: 'go', rs: 'rust', sh: 'bash', bash: 'bash', yml: 'yaml', yaml: 'yaml', sql: 'sql',
};

/** The highlight.js language for a path, or null when we do not highlight it. */
export function languageOf(path: string): string | null {
  const ext = path.split('.').pop()?.toLowerCase() ?? '';
  return EXTENSIONS[ext] ?? null;
}

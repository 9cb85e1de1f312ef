// Syntax highlighting, loaded with a dynamic import after the diff's first
// paint (DIFFVIEW-8): highlight.js core plus a few languages, each its own chunk.
import type { HLJSApi, LanguageFn } from 'highlight.js';

type Loader = () => Promise<{ default: LanguageFn }>;

const LANGUAGES: Record<string, Loader> = {
  typescript: () => import('highlight.js/lib/languages/typescript'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  json: () => import('highlight.js/lib/languages/json'),
  css: () => import('highlight.js/lib/languages/css'),
  xml: () => import('highlight.js/lib/languages/xml'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  python: () => import('highlight.js/lib/languages/python'),
  go: () => import('highlight.js/lib/languages/go'),
  rust: () => import('highlight.js/lib/languages/rust'),
  bash: () => import('highlight.js/lib/languages/bash'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
  sql: () => import('highlight.js/lib/languages/sql'),
};

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

export interface Highlighter {
  /** HTML with every character of `text` escaped, or null if `lang` is not loaded. */
  highlight(lang: string, text: string): string | null;
}

/** Loads the core and the languages the given paths need. */
export async function loadHighlighter(paths: string[]): Promise<Highlighter> {
  const { default: hljs } = (await import('highlight.js/lib/core')) as { default: HLJSApi };
  const wanted = new Set(paths.map(languageOf).filter((l): l is string => l !== null));
  await Promise.all([...wanted].map(async (lang) => {
    if (hljs.getLanguage(lang)) return;
    hljs.registerLanguage(lang, (await LANGUAGES[lang]()).default);
  }));
  return {
    highlight(lang, text) {
      if (!hljs.getLanguage(lang)) return null;
      return hljs.highlight(text, { language: lang, ignoreIllegals: true }).value;
    },
  };
}

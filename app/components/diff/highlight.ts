// Syntax highlighting, loaded with a dynamic import after the diff's first
// paint (DIFFVIEW-8): highlight.js core plus a few languages, each its own chunk.
import type { HLJSApi, LanguageFn } from 'highlight.js';
import { languageOf } from './languages';

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

// The pairing code in the link `commandr pair` shows (`/pair#code=…`). Apart from
// lib/pairing so the Pair screen reads it without downloading the pairing request's
// schemas before the person presses Pair (LAZY-1).
export function codeFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const code = params.get('code')?.trim();
  return code ? code : null;
}

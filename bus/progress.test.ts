import { describe, expect, it } from 'vitest';
import { noteProblem } from './progress';

describe('note validation', () => {
  it('PROGRESS-2: line breaks, blank notes and every control character are refused', () => {
    for (const bad of ['a\nb', 'a\rb', '', ' \t ', 'a\tb', 'a\u0000b', 'a\u001bb', 'a\u007fb', 'a\u009fb', 'a\u2029b']) expect(noteProblem(bad)).toBeDefined();
  });

  it('PROGRESS-3: harness internals are refused; ordinary status is fine', () => {
    for (const bad of ['tool_use', 'a PostToolUse b', 'Transcript saved', 'session_id=1', 'input_tokens: 5', '1.2k tokens']) expect(noteProblem(bad)).toMatch(/harness/);
    for (const ok of ['parser done; 3/5 criteria met', 'tests green (42 passed)', 'refactored the session store', 'token bucket limiter added']) expect(noteProblem(ok)).toBeUndefined();
  });
});

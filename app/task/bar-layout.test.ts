import { describe, expect, it } from 'vitest';
import { barLayout, isCompact } from './bar-layout';
import { barActions } from './task-stage';

describe('the action bar is one slim row', () => {
  it('ROOM-1: with room, the first two actions are on the row and the rest in More', () => {
    expect(barLayout(barActions('approval'), false)).toEqual({ row: ['approve', 'deny'], more: ['annotate', 'run-council'] });
    expect(barLayout(barActions('inbox'), false)).toEqual({ row: ['run-agent', 'annotate'], more: [] });
    expect(barLayout(barActions('failed'), false)).toEqual({ row: ['run-agent', 'annotate'], more: [] });
    expect(barLayout(barActions('merged'), false)).toEqual({ row: [], more: [] });
  });

  it('ROOM-2: with the text large for the screen, the row holds the main action and More holds every other one', () => {
    expect(barLayout(barActions('approval'), true)).toEqual({ row: ['approve'], more: ['deny', 'annotate', 'run-council'] });
    expect(barLayout(barActions('inbox'), true)).toEqual({ row: ['run-agent'], more: ['annotate'] });
    expect(barLayout(barActions('failed'), true)).toEqual({ row: ['run-agent'], more: ['annotate'] });
  });

  it('ROOM-2: a Pixel 7\'s bar (388 px) is roomy at 100 % text and compact at 150 % and 200 %; a desktop\'s is roomy at 200 %', () => {
    expect(isCompact(388, 16)).toBe(false);
    expect(isCompact(388, 24)).toBe(true);
    expect(isCompact(388, 32)).toBe(true);
    expect(isCompact(296, 16)).toBe(false); // a 320 px phone at normal text
    expect(isCompact(936, 32)).toBe(false);
  });
});

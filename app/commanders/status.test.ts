// Reference paths from the Start sheet (CMDR-UI-2).
import { describe, expect, it } from 'vitest';
import { joinReference, referenceProblem, STATUS_LABEL, statusLabel, typedPathProblem, folderChoice } from './status';

describe('commander UI helpers', () => {
  it('CMDR-UI-1: every status has words, a dead session reads as needing a new one', () => {
    expect(STATUS_LABEL.dead).toBe('needs a new session');
    expect(STATUS_LABEL.waiting).toBe('waiting for you');
  });

  it('CMDRFAIL-1: a commander whose start failed reads "could not start", not "needs a new session"', () => {
    expect(statusLabel({ status: 'dead', failure: { reason: 'Claude Code is not logged in on vm.', details: '' } })).toBe('could not start');
    expect(statusLabel({ status: 'dead' })).toBe('needs a new session');
    expect(statusLabel({ status: 'idle' })).toBe('idle');
  });

  it('CMDR-UI-2: a reference path is an allowed root plus an optional folder inside it, never ..', () => {
    expect(joinReference('/home/me/code', '')).toBe('/home/me/code');
    expect(joinReference('/home/me/code/', '/notes/')).toBe('/home/me/code/notes');
    expect(referenceProblem('a/../../etc')).toMatch(/not allowed/);
    expect(referenceProblem('a/b')).toBeNull();
  });

  it('CMDR-UI-2: a folder is offered by its own name first, then its full path', () => {
    expect(folderChoice('/home/ana/code/commandr')).toBe('commandr — /home/ana/code/commandr');
    expect(folderChoice('/srv/repos/api/')).toBe('api — /srv/repos/api/');
    expect(folderChoice('/')).toBe('/');
  });

  it('FLEETUI-6: a path typed for a member machine must be a full path without ..', () => {
    expect(typedPathProblem('')).toBeNull();
    expect(typedPathProblem('  /srv/code/api ')).toBeNull();
    expect(typedPathProblem('code/api')).toMatch(/full path/);
    expect(typedPathProblem('/srv/code/../../etc')).toMatch(/not allowed/);
  });
});

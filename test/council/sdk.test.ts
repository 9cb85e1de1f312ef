// The built-in evaluator against the local Messages API stand-in: the SDK path is
// real (HTTP on loopback), only the model is scripted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCouncil } from '../../bus/council/council';
import { startMessagesApi, type MessagesApi, type RecordedRequest } from '../stand-ins/messages-api';
import { cleanEnv, councilCli, evaluatorScript, makeRepo, packetText, run, TempDirs, writePacket } from './fixtures';

const dirs = new TempDirs();
let api: MessagesApi;
beforeEach(async () => { api = await startMessagesApi(); });
afterEach(async () => { await api.close(); dirs.cleanup(); });

const promptOf = (r: RecordedRequest): string => r.body.messages[0].content;
const dimensionOf = (r: RecordedRequest): string => /dimension: ([a-z-]+)/.exec(promptOf(r))![1]!;

function setup(id: string) {
  const { bus } = makeRepo(dirs);
  return { bus, packet: writePacket(bus, 'claimed', 'h_1_p.md', packetText(id)) };
}

const sdkEnv = (extra: Record<string, string> = {}) => ({ ANTHROPIC_API_KEY: api.apiKey, ANTHROPIC_BASE_URL: api.url, ...extra });

describe('built-in evaluator (Anthropic SDK)', () => {
  it('COUNCIL-5: one request per dimension with the default Haiku model, the key and version headers; the reply text is parsed', async () => {
    const { packet } = setup('S-1');
    api.setReply((r) => ({ text: dimensionOf(r) === 'code-quality' ? 'Looked at it.\n\nVOTE: FAIL\nREASON: no tests\n' : 'VOTE: PASS\nREASON: fine' }));
    const { verdict } = await runCouncil(packet, sdkEnv());
    expect(verdict.verdict).toBe('PASS');
    expect(verdict.votes).toEqual([
      { dimension: 'acceptance-criteria', vote: 'PASS', reason: 'fine' },
      { dimension: 'code-quality', vote: 'FAIL', reason: 'no tests' },
      { dimension: 'style', vote: 'PASS', reason: 'fine' },
    ]);
    const requests = api.messageRequests();
    expect(requests).toHaveLength(3);
    for (const r of requests) {
      expect(r.body.model).toBe('claude-haiku-4-5');
      // The SDK sends the key as x-api-key or as a bearer token, depending on its version.
      expect(r.headers['x-api-key'] ?? r.headers.authorization?.replace(/^Bearer /, '')).toBe(api.apiKey);
      expect(r.headers['anthropic-version']).toBeTruthy();
      expect(promptOf(r)).toContain('id: S-1');
    }
    expect(requests.map(dimensionOf).sort()).toEqual(['acceptance-criteria', 'code-quality', 'style']);
  });

  it('COUNCIL-5: COUNCIL_MODEL picks the model', async () => {
    const { packet } = setup('S-2');
    await runCouncil(packet, sdkEnv({ COUNCIL_MODEL: 'claude-council-test-model' }));
    expect(api.messageRequests().map((r) => r.body.model)).toEqual(['claude-council-test-model', 'claude-council-test-model', 'claude-council-test-model']);
  });

  it('COUNCIL-5: no ANTHROPIC_API_KEY is three ABSTAIN and no request at all', async () => {
    const { packet } = setup('S-3');
    const { verdict } = await runCouncil(packet, { ANTHROPIC_BASE_URL: api.url });
    expect(verdict.verdict).toBe('FAIL');
    expect(verdict.votes.map((v) => [v.vote, v.reason])).toEqual(Array(3).fill(['ABSTAIN', 'no ANTHROPIC_API_KEY']));
    expect(api.requests).toHaveLength(0);
  });

  it('COUNCIL-5: an API error (529 overloaded) is ABSTAIN keeping the reason, and is not retried', async () => {
    const { packet } = setup('S-4');
    api.setReply((r) => (dimensionOf(r) === 'style' ? { error: { status: 529, type: 'overloaded_error', message: 'Overloaded' } } : { text: 'VOTE: PASS' }));
    const { verdict } = await runCouncil(packet, sdkEnv());
    expect(verdict.votes[2]).toEqual({ dimension: 'style', vote: 'ABSTAIN', reason: 'API error 529 overloaded_error: Overloaded' });
    expect(verdict.verdict).toBe('PASS');
    expect(api.messageRequests()).toHaveLength(3);
  });

  it('COUNCIL-5: a model call slower than COUNCIL_TIMEOUT_MS is ABSTAIN with a timeout reason', async () => {
    const { packet } = setup('S-5');
    api.setReply((r) => (dimensionOf(r) === 'acceptance-criteria' ? { text: 'VOTE: PASS', delayMs: 30_000 } : { text: 'VOTE: FAIL' }));
    const { verdict } = await runCouncil(packet, sdkEnv({ COUNCIL_TIMEOUT_MS: '400' }));
    expect(verdict.votes[0]!.vote).toBe('ABSTAIN');
    expect(verdict.votes[0]!.reason).toMatch(/timeout/i);
    expect(verdict.verdict).toBe('FAIL');
  });

  it('COUNCIL-5: a reply without a vote line is ABSTAIN', async () => {
    const { packet } = setup('S-6');
    api.setReply(() => ({ text: 'I would pass this.' }));
    const { verdict } = await runCouncil(packet, sdkEnv());
    expect(verdict.votes.map((v) => v.vote)).toEqual(['ABSTAIN', 'ABSTAIN', 'ABSTAIN']);
    expect(verdict.votes[0]!.reason).toMatch(/no VOTE line/);
  });

  it('COUNCIL-4: with the seam set, the API is never called even when a key and base URL are present', async () => {
    const { bus, packet } = setup('S-7');
    const evaluator = evaluatorScript(dirs, {});
    const res = await run(await councilCli(), [packet], { env: cleanEnv({ ...sdkEnv(), COUNCIL_EVALUATOR_CMD: evaluator.cmd }) });
    expect(res.stdout).toBe('council:S-7:PASS\n');
    expect(api.requests).toHaveLength(0);
    expect(JSON.parse(readFileSync(join(bus, 'council', 'S-7.json'), 'utf8')).verdict).toBe('PASS');
  });

  it('COUNCIL-5: the bundled CLI loads the SDK lazily and exits once the votes are in', async () => {
    const { packet } = setup('S-8');
    api.setReply(() => ({ text: 'VOTE: FAIL\nREASON: nope' }));
    const res = await run(await councilCli(), [packet], { env: cleanEnv(sdkEnv()) });
    expect(res.stderr).toBe('');
    expect(res.stdout).toBe('council:S-8:FAIL\n');
    expect(api.messageRequests()).toHaveLength(3);
  });
});

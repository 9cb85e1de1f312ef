// Accept/reject tables for HTTP bodies (WIRE-6, PAIR-5).
import { describe, expect, it } from 'vitest';
import { Health, PairRequest } from './http';

const key = { kty: 'EC', crv: 'P-256', x: 'x'.repeat(43), y: 'y'.repeat(43) };
const code = 'A'.repeat(43);

const rows: [string, unknown, boolean][] = [
  ['a pair request', { code, name: 'phone', publicKey: key }, true],
  ['a short code', { code: 'abc', name: 'phone', publicKey: key }, false],
  ['a code with a slash', { code: `${'A'.repeat(20)}/x`, name: 'phone', publicKey: key }, false],
  ['an empty name', { code, name: '', publicKey: key }, false],
  ['an 81-char name', { code, name: 'n'.repeat(81), publicKey: key }, false],
  ['an RSA key', { code, name: 'phone', publicKey: { ...key, kty: 'RSA' } }, false],
  ['a P-384 key', { code, name: 'phone', publicKey: { ...key, crv: 'P-384' } }, false],
  ['a huge coordinate', { code, name: 'phone', publicKey: { ...key, x: 'x'.repeat(65) } }, false],
  ['no key', { code, name: 'phone' }, false],
];

describe('HTTP bodies', () => {
  it.each(rows)('PAIR-5: PairRequest with %s', (_name, body, ok) => {
    expect(PairRequest.safeParse(body).success).toBe(ok);
  });

  it('HTTP-1: Health is {ok:true, version}', () => {
    expect(Health.safeParse({ ok: true, version: '0.1.0' }).success).toBe(true);
    expect(Health.safeParse({ ok: false, version: '0.1.0' }).success).toBe(false);
  });
});

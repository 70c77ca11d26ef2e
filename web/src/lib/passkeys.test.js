import { expect, test } from 'vitest';
import { creationOptions, credentialJSON, fromB64url, requestOptions, toB64url } from './passkeys.js';

test('base64url round trip, without padding', () => {
  for (const bytes of [[], [0], [251, 255], [1, 2, 3, 4, 5]]) {
    const s = toB64url(new Uint8Array(bytes).buffer);
    expect(s).not.toMatch(/[+/=]/);
    expect([...new Uint8Array(fromB64url(s))]).toEqual(bytes);
  }
});

test("the server's options become the browser's, and its answer JSON", () => {
  const c = creationOptions({ challenge: 'AQI', user: { id: 'AwQ', name: 'a' }, excludeCredentials: [{ type: 'public-key', id: 'BQ' }] });
  expect([...new Uint8Array(c.challenge)]).toEqual([1, 2]);
  expect([...new Uint8Array(c.user.id)]).toEqual([3, 4]);
  expect([...new Uint8Array(c.excludeCredentials[0].id)]).toEqual([5]);
  expect(requestOptions({ challenge: 'AQI' }).allowCredentials).toEqual([]);
  const buf = (a) => new Uint8Array(a).buffer;
  const j = credentialJSON({ id: 'Bg', rawId: buf([6]), type: 'public-key', response: { clientDataJSON: buf([7]), authenticatorData: buf([8]), signature: buf([9]), userHandle: buf([10]) } });
  expect(j.response).toEqual({ clientDataJSON: 'Bw', authenticatorData: 'CA', signature: 'CQ', userHandle: 'Cg' });
  expect(j.rawId).toBe('Bg');
});

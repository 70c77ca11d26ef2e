// What the lobby's box takes to go to a room: a short room code (issue 16,
// read off the room screen or the table device across a table), a /j/CODE
// or /room/ID link (the QR code's, or a shared one), or a room's id.

// Room codes are 4 to 6 characters of an alphabet without look-alikes
// (docs/server.md, "Table play"): letters and digits, never 0/O, 1/I/L.
export const CODE = /^[A-HJKMNP-Z2-9]{4,6}$/;

// parseJoin reads the box: {code} (normalized to upper case), {room} (an
// id, lower case), or null for nothing usable. Spaces and dashes inside a
// code are dropped ("ab-cd" is ABCD), as people read a code in groups.
export function parseJoin(input) {
  const s = String(input || '').trim();
  if (!s) return null;
  let m = /\/j\/([A-Za-z0-9]+)/.exec(s);
  if (m) return { code: m[1].toUpperCase() };
  m = /\/room\/([A-Za-z0-9_-]+)/.exec(s);
  if (m) return { room: m[1].toLowerCase() };
  const compact = s.replace(/[\s-]+/g, '').toUpperCase();
  if (CODE.test(compact)) return { code: compact };
  if (/^[A-Za-z0-9_-]{1,64}$/.test(s)) return { room: s.toLowerCase() };
  return null;
}

// codePath is the join link of a code (the server redirects it to the room).
export const codePath = (code) => '/j/' + encodeURIComponent(code);

// groups splits a code for reading aloud and for large type: "ABCDEF" is
// "ABC DEF"; four or five characters stay whole.
export function groups(code) {
  const c = String(code || '');
  return c.length === 6 ? c.slice(0, 3) + ' ' + c.slice(3) : c;
}

// findCode asks the server which room a code leads to (GET
// /api/codes/CODE, rate-limited per address): the room's id. It throws
// the server's error (code no_code, bad_code, rate) as api.js does.
export async function findCode(code, fetchFn = globalThis.fetch) {
  let res;
  try {
    res = await fetchFn('/api/codes/' + encodeURIComponent(code));
  } catch (err) {
    throw Object.assign(new Error((err && err.message) || 'network'), { status: 0, code: 'network' });
  }
  let data = null;
  try {
    data = await res.json();
  } catch {
    // an empty or non-JSON answer
  }
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw Object.assign(new Error(e.message || res.statusText), { status: res.status, code: e.code || 'http_' + res.status });
  }
  return data.id;
}

// joinError is the catalogue key and values that tell why a code led
// nowhere, in the reader's language.
export function joinError(err, code) {
  switch (err && err.code) {
    case 'no_code':
      return ['ui.join.no_code', { code }];
    case 'bad_code':
      return ['ui.join.bad_code', { code }];
    case 'rate':
      return ['ui.join.rate', {}];
  }
  return ['ui.error.network', {}];
}

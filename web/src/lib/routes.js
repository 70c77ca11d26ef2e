// The client's pages. The server answers index.html for any page path.

export function match(path) {
  const p = (path || '/').replace(/\/+$/, '') || '/';
  if (p === '/') return { name: 'lobby' };
  if (p === '/new') return { name: 'create' };
  if (p === '/arena') return { name: 'arena' };
  if (p === '/account') return { name: 'account' };
  const m = /^\/room\/([A-Za-z0-9_-]{1,64})$/.exec(p);
  if (m) return { name: 'room', id: m[1].toLowerCase() };
  if (p === '/leaderboard') return { name: 'leaderboard' };
  const pl = /^\/players\/([^/]{1,200})$/.exec(p);
  if (pl) return { name: 'player', player: safeDecode(pl[1]) };
  return { name: 'notfound' };
}

export const roomPath = (id) => '/room/' + id;
export const playerPath = (name) => '/players/' + encodeURIComponent(name);

function safeDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

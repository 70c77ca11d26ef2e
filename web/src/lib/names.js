// Room and preset names for lists.

// roomTitle: the room's own name, else its preset's name in the catalogue.
export function roomTitle(room, t, has) {
  if (room.name && room.name !== room.preset) return room.name;
  if (room.preset && has('preset.' + room.preset)) return t('preset.' + room.preset);
  return room.name || room.preset || room.id;
}

// A seat's label: its nickname, or what it is.
export function seatLabel(seat, t) {
  if (!seat) return '';
  if (seat.deleted) return t('ui.account.deleted_player');
  if (seat.nick) return seat.nick;
  if (seat.bot) return t('ui.seat.bot');
  return t('ui.seat.empty');
}

// cardSummary: [{role, count}] in the order the cards come.
export function cardSummary(cards) {
  const out = [];
  for (const r of cards || []) {
    const last = out.find((x) => x.role === r);
    if (last) last.count++;
    else out.push({ role: r, count: 1 });
  }
  return out;
}

// seatNames: a room's seats by number, a deleted account's seat named
// "deleted player" (its name is gone from the server).
export function seatNames(room, t) {
  return Object.fromEntries((room.seats || []).map((s) => [s.seat, s.deleted ? { ...s, nick: t('ui.account.deleted_player') } : s]));
}

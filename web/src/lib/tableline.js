// The table device's standing line by day (issue 23): last night's result
// (昨夜：平安夜, or the seats that died) and, once the day's vote is done,
// its outcome. Read from the public dawn and exile every seat is told
// (game.js keeps them as g.dawn and g.exiled), so the device says nothing a
// spectator may not know. Pure.

// dayResult: [{key, text, tone}] for the game g, tr the catalogue.
export function dayResult(g, tr) {
  const out = [];
  const seats = (list) => list.map((n) => tr('ui.seat.n', { n })).join(tr('ui.list.sep'));
  if (g.dawn) {
    if (g.dawn.dead.length === 0) out.push({ key: 'peace', text: tr('ui.table.result.peace'), tone: 'good' });
    else out.push({ key: 'dead', text: tr('ui.table.result.dead', { seats: seats(g.dawn.dead) }), tone: 'bad' });
  }
  if (g.exiled) {
    if (g.exiled.seat) out.push({ key: 'exiled', text: tr('ui.table.result.exiled', { seat: seats([g.exiled.seat]) }), tone: 'bad' });
    else out.push({ key: 'exiled', text: tr('ui.table.result.exiled.none'), tone: '' });
  }
  return out;
}

// The moderator's role calls of a night ("预言家请睁眼" …), from the calls
// the server lists in the night's state frames.

// callLines turns the night's calls into the lines to say between nightfall
// and dawn (those two are said on their events). tr is the catalogue lookup.
export function callLines(calls, tr) {
  const out = [];
  for (const c of calls || []) {
    if (c.key !== 'role.open' && c.key !== 'role.close') continue;
    const name = c.group ? tr('group.' + c.group) : tr('role.' + c.role);
    const line = tr(c.key, { role: name });
    out.push(line.charAt(0).toUpperCase() + line.slice(1));
  }
  return out;
}

// spacing is the pause between two calls so that they fill the night:
// the time left, kept a little short of the dawn, shared by the lines, and
// never so short that the voice runs them together.
export function spacing(lines, msLeft) {
  if (!lines) return 0;
  return Math.max(1500, Math.floor((msLeft - 2000) / lines));
}

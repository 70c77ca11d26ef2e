// At a table (a room made for one, issue 23) a phone lies among the players:
// its card and what the seat knows (a wolf's mates) are not in the page until
// held. Rendered on the server with the English catalogue.
import { beforeAll, describe, expect, test } from 'vitest';
import { render } from 'svelte/server';
import { setLanguage } from '../lib/i18n.svelte.js';
import { applyFrame, newGame } from '../lib/game.js';
import RoleCard from './RoleCard.svelte';
import SeatRing from './SeatRing.svelte';

beforeAll(async () => {
  globalThis.document ??= { documentElement: {} };
  await setLanguage('en', false);
});

const alive = [1, 2, 3, 4, 5, 6, 7, 8, 9];
function wolf() {
  const g = newGame('r');
  applyFrame(g, { type: 'welcome', room: 'r', seat: 1, players: 9 });
  applyFrame(g, { type: 'state', seat: 1, role: 'werewolf', wolves: [1, 4, 6], day: 0, night: false, alive, see_card: true });
  return g;
}
const text = (html) => html.replace(/<[^>]+>/g, ' ');

describe('the card at a table', () => {
  test('held nowhere, a wolf\'s card and mates are not in the page', () => {
    const html = render(RoleCard, { props: { g: wolf(), roomId: 'r', hold: true } }).body;
    expect(text(html)).not.toMatch(/werewolf/i);
    expect(text(html)).not.toMatch(/wolf mates/i);
    expect(html).toContain('data-hold="1"');
    expect(text(html)).toMatch(/hold/i);
  });

  test('off a table the card shows, mates too (tap to hide, as before)', () => {
    const html = render(RoleCard, { props: { g: wolf(), roomId: 'r2', hold: false } }).body;
    expect(text(html)).toMatch(/werewolf/i);
    expect(text(html)).toMatch(/wolf mates: 4/i);
  });

  test('the ring hidden shows no mate mark and no card caption', () => {
    const shown = render(SeatRing, { props: { g: wolf(), players: 9, names: {}, onpick: () => {} } }).body;
    const hidden = render(SeatRing, { props: { g: wolf(), players: 9, names: {}, onpick: () => {}, hidden: true } }).body;
    expect(shown).toMatch(/wolfmate/);
    expect(text(shown)).toMatch(/werewolf/i);
    expect(hidden).not.toMatch(/wolfmate/);
    expect(text(hidden)).not.toMatch(/werewolf/i);
  });
});

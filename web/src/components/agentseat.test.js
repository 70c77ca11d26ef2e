// The host of a room on an AIWolf board may open an empty seat to an
// AIWolf agent (docs/aiwolf.md); nobody else is offered it, and no other
// board offers it. Rendered on the server with the English catalogue.
import { beforeAll, expect, test } from 'vitest';
import { render } from 'svelte/server';
import { setLanguage } from '../lib/i18n.svelte.js';

let Waiting;
beforeAll(async () => {
  globalThis.document ??= { documentElement: {} };
  // the router reads the page's address when it loads
  globalThis.location ??= { origin: 'http://127.0.0.1:8000', host: '127.0.0.1:8000', protocol: 'http:',
    pathname: '/room/r1', search: '', href: 'http://127.0.0.1:8000/room/r1' };
  globalThis.addEventListener ??= () => {};
  globalThis.localStorage ??= { getItem: () => null, setItem: () => {}, removeItem: () => {} };
  Waiting = (await import('../screens/Waiting.svelte')).default;
  await setLanguage('en', false);
});

function room(preset) {
  return {
    id: 'r1', name: preset, status: 'open', preset, cards: [], options: {}, timers: {}, bots: 'smart',
    practice: false, players: 5, taken: 2, version: 1,
    seats: [{ seat: 1, nick: 'Alice' }, { seat: 2, nick: 'agent', agent: true }, { seat: 3 }, { seat: 4 }, { seat: 5 }],
  };
}

const testids = (html) => [...html.matchAll(/data-testid="([^"]+)"/g)].map((m) => m[1]);

test('the host of an AIWolf room is offered an agent seat on each empty seat', () => {
  const html = render(Waiting, { props: { room: room('aiwolf-5'), auth: { host: 'h', seat: 1 }, onchange: () => {} } }).body;
  expect(testids(html).filter((id) => id.startsWith('agent-'))).toEqual(['agent-3', 'agent-4', 'agent-5']);
  expect(html).toContain('Open seat 3 to an AIWolf agent');
});

test('a player, or another board, is offered none', () => {
  const player = render(Waiting, { props: { room: room('aiwolf-5'), auth: { seat: 1 }, onchange: () => {} } }).body;
  const other = render(Waiting, { props: { room: room('std-12'), auth: { host: 'h', seat: 1 }, onchange: () => {} } }).body;
  for (const html of [player, other]) {
    expect(testids(html).filter((id) => id.startsWith('agent-'))).toEqual([]);
  }
});

import { describe, expect, test } from 'vitest';
import { applyFrame, newGame } from './game.js';
import { dayResult } from './tableline.js';

const zh = {
  'ui.seat.n': '{n}号', 'ui.list.sep': '、', 'ui.table.result.peace': '昨夜：平安夜', 'ui.table.result.dead': '昨夜死亡：{seats}',
  'ui.table.result.exiled': '放逐：{seat}', 'ui.table.result.exiled.none': '今天无人出局',
};
const tr = (k, p = {}) => zh[k].replace(/\{(\w+)\}/g, (_, x) => p[x]);

// a spectator's game (the table device) fed the public events
function watched(events) {
  const g = newGame('r');
  applyFrame(g, { type: 'welcome', room: 'r', seat: 0, players: 9 });
  events.forEach((e, i) => applyFrame(g, { type: 'event', seq: i + 1, ...e }));
  return g;
}

describe('the table device\'s line by day', () => {
  test('a peaceful night reads 平安夜', () => {
    const g = watched([{ kind: 'night', value: 1 }, { kind: 'day', value: 1 }, { kind: 'dawn', mask: [] }]);
    expect(dayResult(g, tr).map((r) => r.text)).toEqual(['昨夜：平安夜']);
  });

  test('the seats that died, in order, then the vote\'s exile', () => {
    const g = watched([{ kind: 'night', value: 1 }, { kind: 'day', value: 1 }, { kind: 'dawn', mask: [7, 3] }]);
    expect(dayResult(g, tr).map((r) => r.text)).toEqual(['昨夜死亡：3号、7号']);
    applyFrame(g, { type: 'event', seq: 4, kind: 'exile', seat: 5 });
    expect(dayResult(g, tr).map((r) => r.text)).toEqual(['昨夜死亡：3号、7号', '放逐：5号']);
  });

  test('a vote that exiles nobody says so; the next night forgets the exile', () => {
    const g = watched([{ kind: 'night', value: 1 }, { kind: 'day', value: 1 }, { kind: 'dawn', mask: [] }, { kind: 'exile' }]);
    expect(dayResult(g, tr).map((r) => r.text)).toEqual(['昨夜：平安夜', '今天无人出局']);
    applyFrame(g, { type: 'event', seq: 5, kind: 'night', value: 2 });
    expect(dayResult(g, tr).map((r) => r.key)).toEqual(['peace']);
  });

  test('nothing before the first dawn', () => {
    expect(dayResult(watched([{ kind: 'day', value: 1 }]), tr)).toEqual([]);
  });
});

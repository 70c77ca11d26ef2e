import { describe, expect, test } from 'vitest';
import { boardProblems, buildBoard, cardsNeeded, changedOptions, countCards } from './board.js';

const order = ['werewolf', 'white_wolf_king', 'villager', 'seer', 'witch', 'hunter', 'thief'];

describe('buildBoard', () => {
  test('a board file as docs/boards.md shows it', () => {
    const text = buildBoard({
      name: 'my 10-player board',
      players: 10,
      cards: { villager: 5, witch: 1, seer: 1, werewolf: 3, hunter: 0 },
      options: { wolf_win: 'kill_side', sheriff_vote_weight: '1.5', vote_tie: 'nobody' },
      defaults: { wolf_win: 'kill_all', sheriff_vote_weight: '2', vote_tie: 'nobody' },
      order,
    });
    expect(text).toBe(
      'name: "my 10-player board"\n' +
        'players: 10\n' +
        'cards:\n' +
        '  werewolf: 3\n' +
        '  villager: 5\n' +
        '  seer: 1\n' +
        '  witch: 1\n' +
        'options:\n' +
        '  sheriff_vote_weight: "1.5"\n' +
        '  wolf_win: "kill_side"\n',
    );
  });
  test('names are quoted safely', () => {
    const text = buildBoard({ name: ' a "b": c\n# d ', description: '狼人杀', players: 3, cards: { werewolf: 1, villager: 2 } });
    expect(text.split('\n')[0]).toBe('name: "a \\"b\\": c\\n# d"');
    expect(text.split('\n')[1]).toBe('description: "狼人杀"');
  });
  test('without options nor order', () => {
    expect(buildBoard({ players: 3, cards: { werewolf: 1, villager: 2 } })).toBe(
      'players: 3\ncards:\n  werewolf: 1\n  villager: 2\n',
    );
  });
});

describe('boardProblems', () => {
  test('a good board', () => {
    expect(boardProblems({ players: 9, cards: { werewolf: 3, seer: 1, witch: 1, hunter: 1, villager: 3 } })).toEqual([]);
  });
  test('the thief brings two extra cards', () => {
    expect(cardsNeeded(8, { thief: 1 })).toBe(10);
    expect(boardProblems({ players: 8, cards: { werewolf: 2, thief: 1, villager: 5 } })).toEqual(['count']);
    expect(boardProblems({ players: 8, cards: { werewolf: 2, thief: 1, villager: 7 } })).toEqual([]);
  });
  test('each problem', () => {
    expect(boardProblems({ players: 2, cards: { werewolf: 1, villager: 1 } })).toEqual(['players']);
    expect(boardProblems({ players: 21, cards: { werewolf: 1, villager: 20 } })).toEqual(['players']);
    expect(boardProblems({ players: 3, cards: { villager: 3 } })).toEqual(['no_wolf']);
    expect(boardProblems({ players: 3, cards: { werewolf: 3 } })).toEqual(['no_good']);
    expect(boardProblems({ players: 4, cards: { werewolf: 1, seer: 2, villager: 1 } })).toEqual(['unique']);
  });
});

test('changedOptions and countCards', () => {
  expect(changedOptions({ b: '2', a: '1' }, { a: '1', b: '1' })).toEqual({ b: '2' });
  expect(changedOptions({ a: '1' })).toEqual({ a: '1' });
  expect(countCards(['werewolf', 'seer', 'werewolf'])).toEqual({ werewolf: 2, seer: 1 });
});

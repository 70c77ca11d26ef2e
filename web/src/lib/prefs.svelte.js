// Device settings, remembered: the nickname, narration, table mode.
import { load, save } from './storage.js';

export const prefs = $state({
  nickname: load('nickname', ''),
  narrate: load('narrate', null), // null: the default of the mode
  table: false, // this device lies in the middle of the table (set per page)
});

export function setNickname(n) {
  prefs.nickname = n;
  save('nickname', n);
}

export function setNarrate(on) {
  prefs.narrate = on;
  save('narrate', on);
}

// Narration is on by default in table mode, off on a player's device.
export function narrating() {
  return prefs.narrate === null ? prefs.table : prefs.narrate;
}

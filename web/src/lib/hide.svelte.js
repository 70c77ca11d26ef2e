// "Tap to hide": the seat's card and every sign of it on this screen (the
// ring's captions and marks, the checks, the wolf mates, the private log
// lines, the self-explosion) are hidden together, per room, until tapped
// again (a neighbour may look at the phone).
import { load, save } from './storage.js';

export const hide = $state({ room: '', on: false });

// hideFor makes the state the given room's (remembered on the device).
export function hideFor(room) {
  if (hide.room !== room) {
    hide.room = room;
    hide.on = !!load('hide.' + room, false);
  }
  return hide;
}

export function flipHide() {
  hide.on = !hide.on;
  save('hide.' + hide.room, hide.on);
}

// At a table (a room made for one, issue 23) the card is face down by
// default, phones lying among the players: it and every sign of it show
// only while its player holds it (RoleCard, press and hold). held is that
// moment, for the other parts of the screen (the ring, the log).
export const held = $state({ on: false });

export function holdCard(on) {
  held.on = !!on;
}

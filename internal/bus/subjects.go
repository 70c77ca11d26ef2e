package bus

import "fmt"

// The subjects of a game. A game's owner listens on Commands and
// publishes on Room (what every seat may see) and on Seat (what one seat
// alone may see); a node subscribes to Room for the games it holds
// connections of, and to Seat for each seat it holds a connection of,
// never more.
//
//	wolfden.room.<room>.cmd          commands to the owner (request/reply)
//	wolfden.room.<room>.all          the frames every connection receives
//	wolfden.room.<room>.seat.<seat>  the frames of one seat
//
// The moderator's and the channels' audiences (wolves, lovers, the dead)
// are not subjects of their own: the owner resolves them to seats, so
// that a node's subscriptions follow its connections one to one.

const prefix = "wolfden.room."

// Commands is the subject the owner of room answers commands on.
func Commands(room string) (string, error) { return roomSubject(room, "cmd") }

// Room is the subject of room's frames that every seat sees.
func Room(room string) (string, error) { return roomSubject(room, "all") }

// Seat is the subject of the frames only seat sees; seats count from 1.
func Seat(room string, seat int) (string, error) {
	if seat < 1 {
		return "", fmt.Errorf("%w: seat %d of room %q (seats count from 1)", ErrSubject, seat, room)
	}
	return roomSubject(room, fmt.Sprintf("seat.%d", seat))
}

func roomSubject(room, rest string) (string, error) {
	if err := checkToken(room); err != nil {
		return "", fmt.Errorf("%w: room id %q: %v", ErrSubject, room, err)
	}
	return prefix + room + "." + rest, nil
}

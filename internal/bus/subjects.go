package bus

import "fmt"

// The subjects of a cluster. A game's owner listens on Commands; a node
// holding a WebSocket of the game relays it there, and subscribes to that
// connection's Conn subject, on which the owner sends the connection's
// messages, exactly as it would write them to a WebSocket of its own. A
// node subscribes to the Conn subjects of its own connections, never
// more, so that a frame never reaches a node for a seat it does not hold.
//
//	wolfden.room.<room>.cmd          requests to the owner: HTTP, the relays' frames
//	wolfden.room.<room>.conn.<conn>  what the owner sends one relayed connection
//	wolfden.cluster.free             rooms a draining node has just released
//
// The channels' audiences (wolves, lovers, the dead) are not subjects of
// their own: the owner resolves them to connections as it does for its own.

const prefix = "wolfden.room."

// Commands is the subject the owner of room answers commands on.
func Commands(room string) (string, error) { return roomSubject(room, "cmd") }

// Conn is the subject of what room's owner sends one relayed connection;
// conn is the connection's id, chosen by the node holding it.
func Conn(room, conn string) (string, error) {
	if err := checkToken(conn); err != nil {
		return "", fmt.Errorf("%w: connection id %q of room %q: %v", ErrSubject, conn, room, err)
	}
	return roomSubject(room, "conn."+conn)
}

// Free is the subject on which a draining node names the rooms it has
// released, so that another takes them at once.
const Free = "wolfden.cluster.free"

// Moved is the subject on which a node that has just adopted a room says
// so (the room and its new owner), so that every node closes at once the
// connections it relays to the room's old owner and stops waiting on it:
// that owner may be frozen rather than dead.
const Moved = "wolfden.cluster.moved"

func roomSubject(room, rest string) (string, error) {
	if err := checkToken(room); err != nil {
		return "", fmt.Errorf("%w: room id %q: %v", ErrSubject, room, err)
	}
	return prefix + room + "." + rest, nil
}

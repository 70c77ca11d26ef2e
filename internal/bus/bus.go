// Package bus carries messages between the nodes of a cluster: a command
// from a connection on one node to the node that owns its game (request
// and reply), and the owner's frames to the nodes holding the game's
// connections (publish and subscribe). The interface is the server's; each
// transport has its own package (inmem/ for one process, nats/ for NATS),
// and bustest/ checks that each keeps the same contract.
//
// Subjects are exact: a subscription names one subject and receives what
// is published to that subject only. There are no wildcards, so that a
// node cannot, by a pattern, receive the private frames of a seat it does
// not hold; Commands, Conn and Free are the subjects a cluster uses.
package bus

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Errors every adapter returns, wrapped, so that callers test them with
// errors.Is whatever the transport.
var (
	// ErrClosed: the bus was closed by its owner; nothing more goes
	// through it.
	ErrClosed = errors.New("bus: closed")
	// ErrNoResponders: nothing is subscribed to a request's subject (the
	// game's owner is gone, or no node owns it).
	ErrNoResponders = errors.New("bus: no responders")
	// ErrTimeout: a request was heard but not answered before its
	// context's deadline.
	ErrTimeout = errors.New("bus: no reply in time")
	// ErrDisconnected: the transport is cut off from its server (it keeps
	// trying to reconnect); a message sent now would be lost, so it is
	// refused instead of being kept.
	ErrDisconnected = errors.New("bus: not connected")
	// ErrNoReply: Respond on a message that was published, not requested.
	ErrNoReply = errors.New("bus: the message asks for no reply")
	// ErrSubject: a subject that is empty, or holds a wildcard, a space or
	// an empty token.
	ErrSubject = errors.New("bus: bad subject")
)

// PendingLimit is how many messages may wait for one subscription's
// handler in every adapter; past it they are dropped and counted
// (Subscription.Dropped), as NATS drops for a slow consumer, so that one
// stuck handler can neither hold the publishers nor grow without bound.
const PendingLimit = 64 << 10

// Msg is one message received.
type Msg struct {
	Subject string
	Data    []byte
	respond func([]byte) error
}

// NewMsg is how an adapter makes a Msg; respond, nil for a published
// message, sends the reply of a request.
func NewMsg(subject string, data []byte, respond func([]byte) error) Msg {
	return Msg{Subject: subject, Data: data, respond: respond}
}

// Respond answers a request. A request is answered once; a later
// response is dropped by the transport (the requester has its answer).
func (m Msg) Respond(data []byte) error {
	if m.respond == nil {
		return fmt.Errorf("%w (subject %q)", ErrNoReply, m.Subject)
	}
	return m.respond(data)
}

// Handler receives a subscription's messages, one at a time and in the
// order they were published by any one sender. It may Respond later, from
// another goroutine.
type Handler func(Msg)

// Subscription is one Subscribe's.
type Subscription interface {
	// Unsubscribe stops the deliveries; a message already being handled
	// is finished. A second Unsubscribe is ErrClosed.
	Unsubscribe() error
	// Dropped counts the messages lost because the handler fell too far
	// behind (the transport's pending limit).
	Dropped() int
}

// Bus is one node's connection to the bus. It is safe for concurrent use.
type Bus interface {
	// Publish sends data to every subscriber of subject, if any.
	Publish(ctx context.Context, subject string, data []byte) error
	// Subscribe delivers subject's messages to h until Unsubscribe or
	// Close.
	Subscribe(subject string, h Handler) (Subscription, error)
	// Request sends data to subject and waits for the first reply, until
	// ctx ends (ErrTimeout) or it is known that nothing listens
	// (ErrNoResponders).
	Request(ctx context.Context, subject string, data []byte) ([]byte, error)
	// Ready is nil while the bus can carry messages (for /readyz).
	Ready() error
	// Close ends the subscriptions and refuses every later call with
	// ErrClosed.
	Close() error
}

// CheckSubject refuses a subject that is not a plain list of dot-separated
// tokens: empty, a wildcard (* or >) or whitespace in it, or an empty token.
func CheckSubject(subject string) error {
	if subject == "" {
		return fmt.Errorf("%w: empty", ErrSubject)
	}
	for tok := range strings.SplitSeq(subject, ".") {
		if err := checkToken(tok); err != nil {
			return fmt.Errorf("%w %q: %v", ErrSubject, subject, err)
		}
	}
	return nil
}

func checkToken(tok string) error {
	if tok == "" {
		return errors.New("an empty token")
	}
	if tok == "*" || tok == ">" {
		return fmt.Errorf("a wildcard (%s)", tok)
	}
	if strings.ContainsAny(tok, " \t\r\n*>.") {
		return fmt.Errorf("token %q holds a space, a wildcard or a dot", tok)
	}
	return nil
}

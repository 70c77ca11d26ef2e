package chat

import (
	"strconv"
	"sync"
)

// ShortIDs remembers button commands too long for a platform's button
// data (Telegram's 64-byte callback data, Discord's custom_id) under short
// ids, "~" and a number; past max the oldest are forgotten, and their
// buttons stop working.
type ShortIDs struct {
	mu    sync.Mutex
	max   int
	byID  map[string]string
	order []string // the ids in the order made
	next  int
}

// NewShortIDs remembers at most max commands.
func NewShortIDs(max int) *ShortIDs { return &ShortIDs{max: max, byID: map[string]string{}} }

// Add gives cmd a new short id.
func (s *ShortIDs) Add(cmd string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := "~" + strconv.FormatInt(int64(s.next), 36)
	s.next++
	s.byID[id] = cmd
	s.order = append(s.order, id)
	if len(s.order) > s.max {
		delete(s.byID, s.order[0])
		s.order = s.order[1:]
	}
	return id
}

// Command is the command of a short id, "" when it was forgotten.
func (s *ShortIDs) Command(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byID[id]
}

package memory

import (
	"cmp"
	"context"
	"slices"

	"github.com/wolfden/wolfden/internal/store"
)

var _ store.Chat = (*Store)(nil)

type chatKey struct {
	platform, room string
	seat           int
}

// PutChatBinding implements store.Chat.
func (m *Store) PutChatBinding(ctx context.Context, b store.ChatBinding) error {
	if err := store.CheckChatBinding(b); err != nil {
		return err
	}
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	if m.chat == nil {
		m.chat = map[chatKey]store.ChatBinding{}
	}
	m.chat[chatKey{b.Platform, b.Room, b.Seat}] = b
	return nil
}

// ChatBindings implements store.Chat.
func (m *Store) ChatBindings(ctx context.Context, platform string) ([]store.ChatBinding, error) {
	if err := m.read(); err != nil {
		return nil, err
	}
	defer m.mu.Unlock()
	var out []store.ChatBinding
	for k, b := range m.chat {
		if k.platform == platform {
			out = append(out, b)
		}
	}
	slices.SortFunc(out, func(x, y store.ChatBinding) int {
		return cmp.Or(cmp.Compare(x.Room, y.Room), cmp.Compare(x.Seat, y.Seat))
	})
	return out, nil
}

// DeleteChatRoom implements store.Chat.
func (m *Store) DeleteChatRoom(ctx context.Context, platform, room string) error {
	if err := m.write(ctx); err != nil {
		return err
	}
	defer m.mu.Unlock()
	for k := range m.chat {
		if k.platform == platform && k.room == room {
			delete(m.chat, k)
		}
	}
	return nil
}

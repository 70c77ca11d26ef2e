package storetest

import (
	"slices"
	"testing"

	"github.com/wolfden/wolfden/internal/store"
)

// testChatBindings: a binding is added, replaced by its key, listed by
// platform in room and seat order, dropped with its room, refused when
// malformed, and kept across a reopening.
func (s suite) testChatBindings(t *testing.T) {
	st := s.open(t)
	cs, ok := st.(store.Chat)
	if !ok {
		t.Fatalf("%T does not keep chat bindings (store.Chat)", st)
	}
	group := store.ChatBinding{Platform: "onebot", Room: "r2", Group: "g", User: "host", Name: "法官", Lang: "zh-Hant", Token: "tok", Prompt: "std-9"}
	seat := store.ChatBinding{Platform: "onebot", Room: "r2", Seat: 3, Group: "g", User: "u3", Name: "三", Events: 4, Chats: 1, Prompt: "d"}
	other := store.ChatBinding{Platform: "onebot", Room: "r1", Seat: 1, User: "u1"}
	elsewhere := store.ChatBinding{Platform: "telegram", Room: "r1", Seat: 1, User: "t1"}
	for _, b := range []store.ChatBinding{seat, group, other, elsewhere} {
		if err := cs.PutChatBinding(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	seat.Events, seat.Chats, seat.Away = 9, 2, true
	if err := cs.PutChatBinding(ctx, seat); err != nil {
		t.Fatal(err)
	}
	want := []store.ChatBinding{other, group, seat}
	if got, err := cs.ChatBindings(ctx, "onebot"); err != nil || !slices.Equal(got, want) {
		t.Fatalf("the bindings are %+v, %v; want %+v", got, err, want)
	}
	for _, bad := range []store.ChatBinding{{Room: "r"}, {Platform: "p"}, {Platform: "p", Room: "r", Seat: -1},
		{Platform: "p", Room: "r", Events: -1}} {
		if err := cs.PutChatBinding(ctx, bad); err == nil {
			t.Errorf("%+v was stored", bad)
		}
	}
	if err := cs.DeleteChatRoom(ctx, "onebot", "r2"); err != nil {
		t.Fatal(err)
	}
	if got, err := cs.ChatBindings(ctx, "onebot"); err != nil || !slices.Equal(got, []store.ChatBinding{other}) {
		t.Fatalf("after the room's deletion: %+v, %v", got, err)
	}
	if s.Volatile {
		return
	}
	st.Close()
	again := s.open(t).(store.Chat)
	if got, err := again.ChatBindings(ctx, "telegram"); err != nil || !slices.Equal(got, []store.ChatBinding{elsewhere}) {
		t.Fatalf("after a reopening: %+v, %v", got, err)
	}
}

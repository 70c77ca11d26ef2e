package memory

import (
	"testing"

	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/storetest"
)

var adapter = storetest.Adapter{
	NewDB: func(testing.TB) func(testing.TB) store.Store {
		// One store is the whole database: it cannot be opened again.
		var st *Store
		return func(t testing.TB) store.Store {
			if st != nil {
				t.Fatal("the memory store cannot be opened again on its data")
			}
			st = New()
			t.Cleanup(func() { st.Close() })
			return st
		}
	},
	// What it holds goes with it: the tests that reopen a database are not
	// for it.
	Volatile: true,
	// The game's tests (internal/game) run actors on a memory store
	// without creating their rooms, so it takes appends to rooms it does
	// not know instead of refusing them.
	UnknownRooms: true,
}

func TestContract(t *testing.T) { storetest.Run(t, adapter) }

func BenchmarkAppend(b *testing.B) { storetest.BenchmarkAppend(b, adapter) }

func BenchmarkClaimCode(b *testing.B) { storetest.BenchmarkClaimCode(b, adapter) }

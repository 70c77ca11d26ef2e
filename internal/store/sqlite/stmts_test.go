package sqlite

import (
	"context"
	"fmt"
	"testing"
)

// TestAReadIsPreparedOnceAndTheCacheIsBounded: a read's text is parsed
// once and its statement kept; once maxReadStmts texts are kept, a new
// text is still answered, from its text, and not kept.
func TestAReadIsPreparedOnceAndTheCacheIsBounded(t *testing.T) {
	d, _ := openTemp(t)
	ctx := context.Background()
	read := func(q string) int {
		t.Helper()
		var n int
		if err := d.queryRow(ctx, q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if read("SELECT 1") != 1 {
		t.Fatal("SELECT 1 did not read 1")
	}
	first := d.reads.stmts["SELECT 1"]
	if first == nil || read("SELECT 1") != 1 || d.reads.stmts["SELECT 1"] != first {
		t.Fatal("a read's statement was not kept and used again")
	}
	for i := 2; len(d.reads.stmts) < maxReadStmts; i++ {
		read(fmt.Sprintf("SELECT %d", i))
	}
	over := fmt.Sprintf("SELECT %d", 10*maxReadStmts)
	if read(over) != 10*maxReadStmts {
		t.Fatal("a read past the cache's bound was not answered")
	}
	if _, kept := d.reads.stmts[over]; kept || len(d.reads.stmts) != maxReadStmts {
		t.Fatalf("the cache holds %d statements, past its bound %d", len(d.reads.stmts), maxReadStmts)
	}
	rows, err := d.query(ctx, "SELECT 1 UNION ALL SELECT 2")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		n++
	}
	if n != 2 {
		t.Fatalf("a query past the bound read %d rows, want 2", n)
	}
}

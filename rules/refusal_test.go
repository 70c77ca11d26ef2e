package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRefuseKeepsEachArgumentType: every type a refusal may carry comes
// back out of the packed word as itself, so the message reads as written.
func TestRefuseKeepsEachArgumentType(t *testing.T) {
	cases := []struct {
		name string
		r    refusal
		want string
	}{
		{"seat", refuse(CodeTarget, "", "seat %d", Seat(7)), "seat 7"},
		{"step", refuse(CodeNotNow, "", "not now (%s)", StepVote), "not now (" + StepVote.String() + ")"},
		{"command", refuse(CodeNotNow, "", "%s is not yours", CmdSwap), CmdSwap.String() + " is not yours"},
		{"role", refuse(CodeTarget, "", "no %s here", Gargoyle), "no gargoyle here"},
		{"number", refuse(CodeNotNow, "", "unknown command %d", number(200)), "unknown command 200"},
		{"four", refuse(CodeRule, "", "%d %d %s %s", Seat(1), Seat(12), Psychic, CmdCheck), "1 12 psychic " + CmdCheck.String()},
		{"none", refuse(CodeRule, "r=x", "plain"), "plain"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := c.r.err().(*Error)
			if e.Msg != c.want {
				t.Errorf("message %q, want %q", e.Msg, c.want)
			}
		})
	}
}

// TestRefuseBeyondTheWordDoesNotPanic: a refusal given more arguments than
// its word holds, or a nil one, is still a refusal with its code (the rest
// formatted as missing), not a panic in a running game.
func TestRefuseBeyondTheWordDoesNotPanic(t *testing.T) {
	r := refuse(CodeTarget, "", "%d %d %d %d %d", Seat(1), Seat(2), Seat(3), Seat(4), Seat(5))
	e := r.err().(*Error)
	if e.Code != CodeTarget || e.Msg != "1 2 3 4 %!d(MISSING)" {
		t.Errorf("got %v %q", e.Code, e.Msg)
	}
	r = refuse(CodeRule, "", "seat %d then %d", Seat(3), nil)
	if e := r.err().(*Error); e.Msg != "seat 3 then %!d(MISSING)" {
		t.Errorf("got %q", e.Msg)
	}
}

// TestRefuseCallsFitTheirFormat reads every refuse call of the package: a
// literal format has as many verbs as arguments, at most maxRefusalArgs; a
// format that is not a literal (a message chosen elsewhere) takes none.
// fmt's vet check does not know refuse, so this is where a %d without its
// seat would be caught.
func TestRefuseCallsFitTheirFormat(t *testing.T) {
	files, _ := filepath.Glob("*.go")
	fset := token.NewFileSet()
	calls := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if id, ok := c.Fun.(*ast.Ident); !ok || id.Name != "refuse" || len(c.Args) < 3 {
				return true
			}
			calls++
			args := len(c.Args) - 3
			where := fset.Position(c.Pos())
			lit, ok := c.Args[2].(*ast.BasicLit)
			if !ok {
				if args != 0 {
					t.Errorf("%s: a format that is not a literal takes no arguments", where)
				}
				return true
			}
			format, _ := strconv.Unquote(lit.Value)
			verbs := strings.Count(format, "%") - 2*strings.Count(format, "%%")
			if verbs != args || args > maxRefusalArgs {
				t.Errorf("%s: %q has %d verbs and %d arguments (at most %d)", where, format, verbs, args, maxRefusalArgs)
			}
			return true
		})
	}
	if calls < 50 {
		t.Fatalf("found %d refuse calls: the test reads the wrong files", calls)
	}
}

// TestRefuseDoesNotAllocate: a refusal is built on the engine's hot paths
// (a bot's every candidate is checked), so carrying its arguments must cost
// no allocation.
func TestRefuseDoesNotAllocate(t *testing.T) {
	s, k := Seat(5), CmdHunt
	var sink refusal
	if n := testing.AllocsPerRun(100, func() {
		sink = refuse(CodeTarget, "", "%s on seat %d", k, s)
		s++
	}); n != 0 {
		t.Errorf("refuse allocates %v times", n)
	}
	_ = sink
}

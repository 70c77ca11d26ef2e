package server

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/wolfden/wolfden/internal/accounts"
	"github.com/wolfden/wolfden/internal/client"
)

// cheapHashes keep the tests' password hashes quick; the rules checked do
// not depend on the costs.
var cheapHashes = accounts.Options{Params: accounts.Params{Memory: 64, Time: 1, Threads: 1}}

func newAccountServer(t *testing.T, opts Options) *testServer {
	t.Helper()
	opts.Accounts = cheapHashes
	return newTestServerWith(t, opts)
}

// browser is a player's browser: its cookies, and the CSRF header the web
// client sends on every request.
type browser struct {
	t    *testing.T
	base string
	c    *http.Client
	csrf bool
}

func newBrowser(t *testing.T, ts *testServer) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: ts.http.URL, c: &http.Client{Jar: jar, Transport: ts.http.Client().Transport}, csrf: true}
}

// do sends a request and returns its status and body; hdr are more headers.
func (b *browser) do(method, path string, body any, hdr ...string) (int, []byte, *http.Response) {
	b.t.Helper()
	var rd io.Reader
	if body != nil {
		j, _ := json.Marshal(body)
		rd = bytes.NewReader(j)
	}
	req, _ := http.NewRequest(method, b.base+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if b.csrf {
		req.Header.Set(CSRFHeader, "1")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, out, res
}

func (b *browser) want(status int, method, path string, body any, hdr ...string) []byte {
	b.t.Helper()
	got, out, _ := b.do(method, path, body, hdr...)
	if got != status {
		b.t.Fatalf("%s %s: %d %s, want %d", method, path, got, out, status)
	}
	return out
}

func (b *browser) signUp(name string) {
	b.t.Helper()
	b.want(http.StatusCreated, "POST", "/api/accounts", map[string]string{"name": name, "password": "password-" + name})
}

func sessionCookie(t *testing.T, res *http.Response) *http.Cookie {
	t.Helper()
	for _, c := range res.Cookies() {
		if c.Name == SessionCookie {
			return c
		}
	}
	t.Fatalf("no %s cookie set: %v", SessionCookie, res.Header.Values("Set-Cookie"))
	return nil
}

// The session is a cookie scripts cannot read (HttpOnly), sent only to
// this site (SameSite=Strict), Secure over TLS and not over plain HTTP,
// where the browser would never send it back.
func TestSessionCookieIsHttpOnlyStrictAndSecureOverTLS(t *testing.T) {
	ts := newAccountServer(t, Options{})
	b := newBrowser(t, ts)
	_, _, res := b.do("POST", "/api/accounts", map[string]string{"name": "Alice", "password": "password-1"})
	c := sessionCookie(t, res)
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.Secure || c.MaxAge <= 0 {
		t.Errorf("session cookie over HTTP: %+v", c)
	}

	tls := httptest.NewTLSServer(newAccountServer(t, Options{}).Server)
	defer tls.Close()
	tb := &browser{t: t, base: tls.URL, c: tls.Client(), csrf: true}
	_, _, res = tb.do("POST", "/api/accounts", map[string]string{"name": "Bob", "password": "password-1"})
	if c := sessionCookie(t, res); !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
		t.Errorf("session cookie over TLS: %+v", c)
	}
}

func TestSignUpSignOutSignIn(t *testing.T) {
	ts := newAccountServer(t, Options{})
	b := newBrowser(t, ts)
	b.want(http.StatusNoContent, "GET", "/api/me", nil)
	b.signUp("Alice")
	var me meInfo
	json.Unmarshal(b.want(http.StatusOK, "GET", "/api/me", nil), &me)
	if me.Name != "Alice" || !me.Public || !me.Password || me.Passkeys != 0 {
		t.Errorf("me: %+v", me)
	}
	b.want(http.StatusConflict, "POST", "/api/accounts", map[string]string{"name": "alice", "password": "password-2"})
	b.want(http.StatusNoContent, "DELETE", "/api/session", nil)
	b.want(http.StatusNoContent, "GET", "/api/me", nil)
	b.want(http.StatusOK, "POST", "/api/session", map[string]string{"name": "ALICE", "password": "password-Alice"})
	b.want(http.StatusOK, "PATCH", "/api/me", map[string]any{"public": false})
	json.Unmarshal(b.want(http.StatusOK, "GET", "/api/me", nil), &me)
	if me.Public {
		t.Error("the profile is still public")
	}
	b.want(http.StatusBadRequest, "POST", "/api/accounts", map[string]string{"name": "Carol", "password": "short"})
}

// A flood of sign-ins from one address is cut off: past the limit even
// the right password is refused, until the minute has passed.
func TestLoginFloodIsLimited(t *testing.T) {
	ts := newAccountServer(t, Options{AuthPerMinute: 3})
	b := newBrowser(t, ts)
	b.signUp("Alice") // one of the 3
	for range 2 {
		b.want(http.StatusUnauthorized, "POST", "/api/session", map[string]string{"name": "Alice", "password": "guess-guess"})
	}
	body := b.want(http.StatusTooManyRequests, "POST", "/api/session", map[string]string{"name": "Alice", "password": "password-Alice"})
	if !strings.Contains(string(body), `"rate"`) {
		t.Errorf("flooded: %s", body)
	}
	b.want(http.StatusTooManyRequests, "POST", "/api/accounts", map[string]string{"name": "Bob", "password": "password-1"})
	b.want(http.StatusTooManyRequests, "POST", "/api/passkeys/login/begin", nil)
}

// An unknown name and a wrong password get the same answer, byte for
// byte: the answer does not tell whether a name has an account.
func TestSignInDoesNotTellWhetherANameExists(t *testing.T) {
	ts := newAccountServer(t, Options{})
	b := newBrowser(t, ts)
	b.signUp("Alice")
	b.want(http.StatusNoContent, "DELETE", "/api/session", nil)
	s1, wrong, r1 := b.do("POST", "/api/session", map[string]string{"name": "Alice", "password": "wrong-password"})
	s2, unknown, r2 := b.do("POST", "/api/session", map[string]string{"name": "Nobody", "password": "wrong-password"})
	if s1 != s2 || !bytes.Equal(wrong, unknown) || s1 != http.StatusUnauthorized {
		t.Errorf("wrong password: %d %s\nunknown name: %d %s", s1, wrong, s2, unknown)
	}
	for _, h := range []string{"Content-Type", "Set-Cookie", "Cache-Control"} {
		if r1.Header.Get(h) != r2.Header.Get(h) {
			t.Errorf("header %s: %q vs %q", h, r1.Header.Get(h), r2.Header.Get(h))
		}
	}
}

// A request that changes an account without the site's CSRF header, or
// from another site, is refused and changes nothing; another site cannot
// take a seat as the signed-in player.
func TestCSRFIsRefused(t *testing.T) {
	ts := newAccountServer(t, Options{})
	b := newBrowser(t, ts)
	b.signUp("Alice")
	cases := []struct {
		name string
		csrf bool
		hdr  []string
	}{
		{"no header", false, nil},
		{"from another site", true, []string{"Sec-Fetch-Site", "cross-site"}},
		{"from another origin", true, []string{"Origin", "http://evil.example"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b.csrf = c.csrf
			defer func() { b.csrf = true }()
			for _, req := range []struct {
				method, path string
				body         any
			}{
				{"POST", "/api/accounts", map[string]string{"name": "Mallory", "password": "password-1"}},
				{"POST", "/api/session", map[string]string{"name": "Alice", "password": "password-Alice"}},
				{"PATCH", "/api/me", map[string]any{"public": false}},
				{"DELETE", "/api/me", nil},
				{"DELETE", "/api/session", nil},
				{"POST", "/api/me/claim", map[string]any{"seats": []any{}}},
				{"POST", "/api/passkeys/register/begin", map[string]any{}},
			} {
				status, body, _ := b.do(req.method, req.path, req.body, c.hdr...)
				if status != http.StatusForbidden || !strings.Contains(string(body), `"csrf"`) {
					t.Errorf("%s %s: %d %s, want 403 csrf", req.method, req.path, status, body)
				}
			}
		})
	}
	var me meInfo
	json.Unmarshal(b.want(http.StatusOK, "GET", "/api/me", nil), &me)
	if !me.Public || me.Name != "Alice" {
		t.Errorf("a refused request changed the account: %+v", me)
	}
	if _, err := ts.st.AccountByName(context.Background(), "Mallory"); err == nil {
		t.Error("a refused sign-up made an account")
	}
	// A join from another site is a guest's: the seat is not linked.
	var c client.Created
	if err := ts.api.Do(context.Background(), "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &c); err != nil {
		t.Fatal(err)
	}
	b.csrf = false
	b.want(http.StatusOK, "POST", "/api/rooms/"+c.Room.ID+"/join", map[string]string{"nickname": "A"}, "Sec-Fetch-Site", "cross-site")
	if links, _ := ts.st.SeatAccounts(context.Background(), c.Room.ID); len(links) != 0 {
		t.Errorf("a cross-site join linked seats %v", links)
	}
}

// A guest plays as before: joining sets no cookie and links nothing; a
// signed-in player's join links his seat, his leaving unlinks it.
func TestGuestPlayIsUnchangedAndSignedInSeatsAreLinked(t *testing.T) {
	ts := newAccountServer(t, Options{})
	ctx := context.Background()
	var c client.Created
	if err := ts.api.Do(ctx, "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &c); err != nil {
		t.Fatal(err)
	}
	guest := newBrowser(t, ts)
	_, body, res := guest.do("POST", "/api/rooms/"+c.Room.ID+"/join", map[string]string{"nickname": "Guest"})
	if len(res.Cookies()) != 0 || !strings.Contains(string(body), `"token"`) {
		t.Errorf("a guest's join: cookies %v, body %s", res.Cookies(), body)
	}
	alice := newBrowser(t, ts)
	alice.signUp("Alice")
	var seat seated
	json.Unmarshal(alice.want(http.StatusOK, "POST", "/api/rooms/"+c.Room.ID+"/join", map[string]string{"nickname": "Alice"}), &seat)
	a, _ := ts.st.AccountByName(ctx, "Alice")
	links, _ := ts.st.SeatAccounts(ctx, c.Room.ID)
	if len(links) != 1 || links[seat.Seat] != a.ID {
		t.Errorf("links after Alice joined seat %d: %v", seat.Seat, links)
	}
	var info json.RawMessage
	ts.api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID, "", nil, &info)
	if strings.Contains(string(info), a.ID) || strings.Contains(string(info), "account") {
		t.Errorf("the room's info tells the account: %s", info)
	}
	alice.want(http.StatusOK, "POST", "/api/rooms/"+c.Room.ID+"/leave", nil, "Authorization", "Bearer "+seat.Token)
	if links, _ := ts.st.SeatAccounts(ctx, c.Room.ID); len(links) != 0 {
		t.Errorf("links after Alice left: %v", links)
	}
}

// A guest who signs up afterwards claims the seats he played with their
// tokens; a wrong token, or a seat another account holds, is refused.
func TestGuestClaimsTheGamesHeJustPlayed(t *testing.T) {
	ts := newAccountServer(t, Options{})
	ctx := context.Background()
	c, _ := ts.createStarted(t, map[string]any{"preset": "std-9", "nickname": "g", "timers": slow})
	b := newBrowser(t, ts)
	b.signUp("Alice")
	var out struct {
		Claimed []struct {
			Room string `json:"room"`
			Seat int    `json:"seat"`
		} `json:"claimed"`
		Refused int `json:"refused"`
	}
	json.Unmarshal(b.want(http.StatusOK, "POST", "/api/me/claim", map[string]any{"seats": []map[string]string{
		{"room": c.Room.ID, "token": c.Token}, {"room": c.Room.ID, "token": "wrong"}, {"room": "nope", "token": c.Token},
	}}), &out)
	if len(out.Claimed) != 1 || out.Claimed[0].Seat != 1 || out.Refused != 2 {
		t.Errorf("claim: %+v", out)
	}
	a, _ := ts.st.AccountByName(ctx, "Alice")
	if links, _ := ts.st.SeatAccounts(ctx, c.Room.ID); links[1] != a.ID {
		t.Errorf("links: %v", links)
	}
	bob := newBrowser(t, ts)
	bob.signUp("Bob")
	json.Unmarshal(bob.want(http.StatusOK, "POST", "/api/me/claim", map[string]any{"seats": []map[string]string{{"room": c.Room.ID, "token": c.Token}}}), &out)
	if len(out.Claimed) != 0 || out.Refused != 1 {
		t.Errorf("Bob claimed Alice's seat: %+v", out)
	}
	bob.csrf = false
	bob.want(http.StatusForbidden, "POST", "/api/me/claim", map[string]any{"seats": []any{}})
	newBrowser(t, ts).want(http.StatusUnauthorized, "POST", "/api/me/claim", map[string]any{"seats": []any{}})
}

// Deleting an account leaves nothing of it in any table of the database,
// and its seats read as a deleted player's.
func TestDeletedAccountIsGoneFromEveryTable(t *testing.T) {
	ts := newAccountServer(t, Options{})
	ctx := context.Background()
	b := newBrowser(t, ts)
	b.want(http.StatusCreated, "POST", "/api/accounts", map[string]string{"name": "Zelda Unique", "password": "password-1"})
	a, _ := ts.st.AccountByName(ctx, "Zelda Unique")
	var c client.Created
	json.Unmarshal(b.want(http.StatusCreated, "POST", "/api/rooms", map[string]any{"preset": "std-9", "nickname": "Zelda Unique"}), &c)
	b.want(http.StatusOK, "POST", "/api/session", map[string]string{"name": "Zelda Unique", "password": "password-1"}) // a second session
	b.want(http.StatusNoContent, "DELETE", "/api/me", nil)
	b.want(http.StatusNoContent, "GET", "/api/me", nil)

	db, err := sql.Open("sqlite", "file:"+ts.path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tables := tableNames(t, db)
	for _, want := range []string{"accounts", "sessions", "passkeys", "seat_links", "rooms"} {
		if !strings.Contains(" "+strings.Join(tables, " ")+" ", " "+want+" ") {
			t.Fatalf("no table %s among %v", want, tables)
		}
	}
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + table + `"`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			rows.Scan(ptrs...)
			for i, v := range vals {
				s := fmt.Sprint(v)
				if b, ok := v.([]byte); ok {
					s = string(b)
				}
				if strings.Contains(s, a.ID) || strings.Contains(s, "Zelda Unique") {
					t.Errorf("table %s, column %s still holds the account: %.200s", table, cols[i], s)
				}
			}
		}
		rows.Close()
	}
	var info roomInfo
	ts.api.Do(ctx, "GET", "/api/rooms/"+c.Room.ID, "", nil, &info)
	if s := info.Seats[0]; !s.Deleted || s.Nick != "" {
		t.Errorf("the deleted player's seat: %+v", s)
	}
	b.want(http.StatusUnauthorized, "POST", "/api/session", map[string]string{"name": "Zelda Unique", "password": "password-1"})
}

func tableNames(t *testing.T, db *sql.DB) []string {
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		out = append(out, n)
	}
	return out
}

// The operator locks an account on the operator listener: it cannot sign
// in, its session is refused at once; unlocked, it can again.
func TestOperatorLocksAnAccount(t *testing.T) {
	ts := newAccountServer(t, Options{})
	op := httptest.NewServer(ts.Operator())
	defer op.Close()
	b := newBrowser(t, ts)
	b.signUp("Alice")
	post := func(path string, want int) {
		t.Helper()
		res, err := http.Post(op.URL+path, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Fatalf("POST %s: %d, want %d", path, res.StatusCode, want)
		}
	}
	post("/accounts/alice/lock", http.StatusOK)
	b.want(http.StatusNoContent, "GET", "/api/me", nil)
	b.want(http.StatusForbidden, "POST", "/api/session", map[string]string{"name": "Alice", "password": "password-Alice"})
	res, err := http.Get(op.URL + "/accounts")
	if err != nil {
		t.Fatal(err)
	}
	var list []AccountInfo
	json.NewDecoder(res.Body).Decode(&list)
	res.Body.Close()
	if len(list) != 1 || list[0].Name != "Alice" || !list[0].Locked {
		t.Errorf("GET /accounts: %+v", list)
	}
	post("/accounts/Alice/unlock", http.StatusOK)
	b.want(http.StatusOK, "POST", "/api/session", map[string]string{"name": "Alice", "password": "password-Alice"})
	post("/accounts/nobody/lock", http.StatusNotFound)
	// Not on the public listener.
	if s, _, _ := b.do("POST", "/accounts/alice/lock", nil); s != http.StatusNotFound && s != http.StatusMethodNotAllowed {
		t.Errorf("the public listener answers the operator's lock: %d", s)
	}
}

// A signed-in player's seat is sent the same frames as a guest's in the
// same seat of the same practice game: nothing of the account travels.
func TestSignedInSeatFramesAreAGuests(t *testing.T) {
	ts := newAccountServer(t, Options{})
	b := newBrowser(t, ts)
	b.signUp("Alice")
	a, _ := ts.st.AccountByName(context.Background(), "Alice")
	body := map[string]any{"preset": "std-9", "seed": 7, "practice": true, "nickname": "p1", "timers": slow}
	var signed, guest client.Created
	json.Unmarshal(b.want(http.StatusCreated, "POST", "/api/rooms", body), &signed)
	if err := ts.api.Do(context.Background(), "POST", "/api/rooms", "", body, &guest); err != nil {
		t.Fatal(err)
	}
	if links, _ := ts.st.SeatAccounts(context.Background(), signed.Room.ID); links[1] != a.ID {
		t.Fatalf("the signed-in seat is not linked: %v", links)
	}
	var frames [2][]string
	for i, c := range []client.Created{signed, guest} {
		var info json.RawMessage
		if err := ts.api.Do(context.Background(), "POST", "/api/rooms/"+c.Room.ID+"/start", c.HostToken, nil, &info); err != nil {
			t.Fatal(err)
		}
		frames[i] = firstFrames(t, ts.http.URL, c.Room.ID, c.Token)
	}
	if strings.Join(frames[0], "\n") != strings.Join(frames[1], "\n") {
		t.Errorf("signed-in seat:\n%s\nguest seat:\n%s", strings.Join(frames[0], "\n"), strings.Join(frames[1], "\n"))
	}
	for _, f := range frames[0] {
		if strings.Contains(f, a.ID) || strings.Contains(f, "Alice") {
			t.Errorf("a frame tells the account: %s", f)
		}
	}
}

// firstFrames reads a seat's frames up to its first state, each with
// what differs between two rooms (the room, the clocks) left out.
func firstFrames(t *testing.T, base, room, token string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/ws/"+room, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 20)
	hello, _ := json.Marshal(map[string]any{"type": "hello", "token": token})
	ws.Write(ctx, websocket.MessageText, hello)
	var out []string
	for {
		_, msg, err := ws.Read(ctx)
		if err != nil {
			t.Fatalf("after %d frames: %v", len(out), err)
		}
		for _, line := range bytes.Split(bytes.TrimSpace(msg), []byte("\n")) {
			var f map[string]any
			if err := json.Unmarshal(line, &f); err != nil {
				t.Fatalf("frame %s: %v", line, err)
			}
			switch f["type"] {
			case "tick", "pad", "alive", "seen":
				continue
			}
			for _, k := range []string{"room", "now", "deadline", "night_end", "at"} {
				delete(f, k)
			}
			j, _ := json.Marshal(f)
			out = append(out, string(j))
			if f["type"] == "state" {
				return out
			}
		}
	}
}

// Passkeys belong to a domain: a page reached by an IP address is told to
// use a password, and a page outside --rp-id's domain is refused.
func TestPasskeysNeedADomain(t *testing.T) {
	ts := newAccountServer(t, Options{})
	b := newBrowser(t, ts)
	body := b.want(http.StatusBadRequest, "POST", "/api/passkeys/login/begin", nil)
	if !strings.Contains(string(body), "passkey_host") {
		t.Errorf("an IP address: %s", body)
	}
	for _, c := range []struct {
		rpid, host string
		ok         bool
	}{{"", "localhost", true}, {"example.com", "wolf.example.com", true}, {"example.com", "example.org", false}} {
		s := &Server{opts: Options{RPID: c.rpid}}
		r := httptest.NewRequest("POST", "http://"+c.host+":8080/api/passkeys/login/begin", nil)
		rp, err := s.rp(r)
		if (err == nil) != c.ok {
			t.Errorf("--rp-id %q, host %s: %+v, %v", c.rpid, c.host, rp, err)
		}
		if c.ok && rp.Origin != "http://"+c.host+":8080" {
			t.Errorf("origin %q", rp.Origin)
		}
	}
}

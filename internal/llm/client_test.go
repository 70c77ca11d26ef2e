package llm

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wolfden/wolfden/rules"
)

// TestTheKeyIsNeverInAnErrorNorALogLine: an endpoint that echoes the
// request's headers in its refusal (as some proxies do) gets the key as a
// bearer token; the error the player logs holds neither the key nor the
// URL's password.
func TestTheKeyIsNeverInAnErrorNorALogLine(t *testing.T) {
	got := ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Get("Authorization")
		http.Error(w, "denied: "+r.Header.Get("Authorization")+" "+r.URL.String(), http.StatusUnauthorized)
	}))
	defer srv.Close()
	u := strings.Replace(srv.URL, "http://", "http://user:hunter2@", 1) + "/v1"
	c := &Config{URL: u, Model: "m", Key: testKey}
	_, err := c.complete(context.Background(), []Message{{Role: "user", Content: "hi"}}, 1)
	if got != "Bearer "+testKey {
		t.Fatalf("the endpoint got %q", got)
	}
	if err == nil || strings.Contains(err.Error(), testKey) || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), "401") {
		t.Fatalf("error: %v", err)
	}
	if strings.Contains(c.Endpoint(), "hunter2") {
		t.Fatalf("endpoint as logged: %s", c.Endpoint())
	}

	// The player's own log, over a whole question and its retry.
	var buf syncBuf
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	frames := make(chan []byte, 4)
	p := NewPlayer(c, 1, 5, 1, frames, nopTable{}, log)
	deadline := time.Now().Add(3 * time.Second).UnixMilli()
	frames <- []byte(`{"type":"state","seat":1,"day":1,"step":"vote","alive":[1,2,3,4,5],"pending":true,"deadline":` +
		itoa(deadline) + `,"choices":[{"cmd":"vote","targets":[2,3]}]}`)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	go func() {
		for !strings.Contains(buf.String(), "no usable reply") && ctx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
	}()
	_ = p.Run(ctx)
	if !strings.Contains(buf.String(), "did not answer") || strings.Contains(buf.String(), testKey) || strings.Contains(buf.String(), "hunter2") {
		t.Fatalf("log:\n%s", buf.String())
	}
}

// syncBuf is a log's buffer read while the player writes to it.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

type nopTable struct{}

func (nopTable) Act(int64, rules.Command) error   { return nil }
func (nopTable) Chat(int64, string, string) error { return nil }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestUsageCountsCallsAndTheTokensTheEndpointReports: each call is
// counted with its time, and the tokens come from the answers' "usage";
// an answer without one adds no tokens.
func TestUsageCountsCallsAndTheTokensTheEndpointReports(t *testing.T) {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n++
		usage := `,"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150}`
		if n == 2 {
			usage = ""
		}
		_, _ = w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":"{}"}}]` + usage + `}`))
	}))
	defer srv.Close()
	c := &Config{URL: srv.URL + "/v1", Model: "m", Usage: &Usage{}}
	for range 3 {
		if _, err := c.complete(context.Background(), []Message{{Role: "user", Content: "hi"}}, 1); err != nil {
			t.Fatal(err)
		}
	}
	u := c.Usage
	if u.Calls.Load() != 3 || u.PromptTokens.Load() != 240 || u.CompletionTokens.Load() != 60 || u.Nanos.Load() <= 0 {
		t.Errorf("usage: %d calls, %d+%d tokens, %d ns", u.Calls.Load(), u.PromptTokens.Load(), u.CompletionTokens.Load(), u.Nanos.Load())
	}
}

// TestReasoningGivenApartIsKeptBeforeTheAnswer: an endpoint that gives the
// reasoning beside the content (reasoning_content) has it kept as a
// <think> block, which the reply's reading leaves out.
func TestReasoningGivenApartIsKeptBeforeTheAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"choices":[{"message":{"role":"assistant","reasoning_content":"Seat 3 voted oddly {not json}.","content":"{\"action\":{\"cmd\":\"vote\",\"target\":3}}"}}]}`))
	}))
	defer srv.Close()
	c := &Config{URL: srv.URL + "/v1", Model: "m"}
	got, err := c.complete(context.Background(), []Message{{Role: "user", Content: "hi"}}, 1)
	if err != nil || got != `<think>Seat 3 voted oddly {not json}.</think>{"action":{"cmd":"vote","target":3}}` {
		t.Fatalf("%q, %v", got, err)
	}
	r, err := parseReply(got)
	if err != nil || r.Action == nil || r.Action.Cmd != "vote" || r.Action.Target != 3 {
		t.Errorf("read as %+v, %v", r, err)
	}
}

package aiwolf

import (
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gw "github.com/wolfden/wolfden/internal/aiwolf"
	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

// RunRemote plays against a server it did not start (here one in this
// process, so the process to measure is this one) and reports the
// server's CPU per game and the agents' turnaround.
func TestRunRemotePlaysAnotherServerAndReadsItsCPU(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "w.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := server.New(st, server.Options{Log: slog.New(slog.DiscardHandler), AIWolf: &gw.Options{Players: Players}})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	url := "ws" + strings.TrimPrefix(hs.URL, "http") + "/aiwolf/ws"
	rep, err := RunRemote(t.Context(), RemoteConfig{URL: url, PID: os.Getpid(), Agents: 10, Games: 4})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != 4 || rep.Failed != 0 || rep.Replies < 4*5 || rep.ServerCPU <= 0 || rep.CPUPerGame != rep.ServerCPU/4 ||
		rep.TurnP50 <= 0 || rep.TurnP90 < rep.TurnP50 || rep.TurnP99 < rep.TurnP90 || rep.TurnP999 < rep.TurnP99 || rep.TurnMax < rep.TurnP999 {
		t.Errorf("report: %+v", rep)
	}
	var b strings.Builder
	if err := PrintRemote(&b, []RemoteReport{rep}); err != nil || !strings.Contains(b.String(), "cpu per game") {
		t.Errorf("PrintRemote: %v\n%s", err, b.String())
	}
	// The split by request adds up to the whole, and every game began
	// with the five agents' INITIALIZE.
	n, inits := 0, 0
	for _, q := range rep.ByRequest {
		n += q.Count
		if q.Request == "INITIALIZE" {
			inits = q.Count
		}
		if q.P50 <= 0 || q.P99 < q.P50 || q.Max < q.P99 || q.Max > rep.TurnMax {
			t.Errorf("%s's turnaround: %+v (all: max %v)", q.Request, q, rep.TurnMax)
		}
	}
	if n != rep.Replies || inits != 4*5 {
		t.Errorf("the split by request counts %d replies (want %d), %d ended by INITIALIZE (want 20): %+v", n, rep.Replies, inits, rep.ByRequest)
	}
	b.Reset()
	if err := PrintByRequest(&b, []RemoteReport{rep}); err != nil || !strings.Contains(b.String(), "INITIALIZE") {
		t.Errorf("PrintByRequest: %v\n%s", err, b.String())
	}
	if _, err := RunRemote(t.Context(), RemoteConfig{URL: url, PID: os.Getpid(), Agents: 7, Games: 1}); err == nil {
		t.Error("7 agents accepted")
	}
	if _, err := RunRemote(t.Context(), RemoteConfig{URL: url, PID: 1 << 30, Agents: 5, Games: 1}); err == nil || !strings.Contains(err.Error(), "CPU time") {
		t.Errorf("a process that is not there: %v", err)
	}
}

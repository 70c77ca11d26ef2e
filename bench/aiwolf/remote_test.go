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
		rep.TurnP50 <= 0 || rep.TurnP99 < rep.TurnP50 || rep.TurnMax < rep.TurnP99 {
		t.Errorf("report: %+v", rep)
	}
	var b strings.Builder
	if err := PrintRemote(&b, []RemoteReport{rep}); err != nil || !strings.Contains(b.String(), "cpu per game") {
		t.Errorf("PrintRemote: %v\n%s", err, b.String())
	}
	if _, err := RunRemote(t.Context(), RemoteConfig{URL: url, PID: os.Getpid(), Agents: 7, Games: 1}); err == nil {
		t.Error("7 agents accepted")
	}
	if _, err := RunRemote(t.Context(), RemoteConfig{URL: url, PID: 1 << 30, Agents: 5, Games: 1}); err == nil || !strings.Contains(err.Error(), "CPU time") {
		t.Errorf("a process that is not there: %v", err)
	}
}

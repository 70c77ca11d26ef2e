package aiwolf

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

func TestRunPlaysAndMeasuresStoredGames(t *testing.T) {
	rep, err := Run(t.Context(), Config{Agents: 10, Games: 6, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	// A 5-player game has at least NAME, talk, one vote and a divination
	// per agent: well over 5 requests.
	if rep.Games != 6 || rep.Failed != 0 || rep.Requests < 6*10 || rep.P50 <= 0 || rep.P99 < rep.P50 ||
		rep.Max < rep.P99 || rep.GamesPerS <= 0 || rep.HeapBefore == 0 || rep.HeapAfter == 0 || rep.StoreBytes == 0 {
		t.Errorf("report: %+v", rep)
	}
	var b strings.Builder
	if err := Print(&b, []Report{rep}); err != nil || !strings.Contains(b.String(), "games/s") || strings.Count(b.String(), "\n") != 2 {
		t.Errorf("Print: %v\n%s", err, b.String())
	}
}

func TestRunRefusesBadConfigsByName(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Agents: 7, Games: 1}, "7 agents: a positive multiple of 5"},
		{Config{Agents: 0, Games: 1}, "0 agents"},
		{Config{Agents: 5, Games: 0}, "0 games"},
		{Config{Agents: 5, Games: 1, Linger: -1}, "linger -1ns is negative"},
	} {
		if _, err := Run(context.Background(), tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.cfg, err, tc.want)
		}
	}
}

// BenchmarkGames plays b.N games at each K, with the figures of Run as
// metrics (ns/op also counts the linger and the reading back of the logs;
// with b.N below K/5 only b.N teams play): go test -run XXX -bench Games
// -benchtime 1000x ./bench/aiwolf
func BenchmarkGames(b *testing.B) {
	for _, k := range []int{5, 50, 250} {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			rep, err := Run(b.Context(), Config{Agents: k, Games: max(b.N, 1), Dir: b.TempDir()})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(rep.GamesPerS, "games/s")
			b.ReportMetric(rep.GamesPerCPUS, "games/cpu-s")
			b.ReportMetric(float64(rep.P50.Microseconds()), "p50-µs")
			b.ReportMetric(float64(rep.P99.Microseconds()), "p99-µs")
			b.ReportMetric(float64(rep.HeapAfter)/(1<<20), "heap-after-MiB")
		})
	}
}

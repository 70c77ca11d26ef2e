package server

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics has a registry of its own per server, so tests can run several.
type metrics struct {
	reg         *prometheus.Registry
	rooms       *prometheus.GaugeVec
	games       prometheus.Gauge
	connections prometheus.Gauge
	commands    *prometheus.CounterVec
	latency     prometheus.Histogram
	storeFails  prometheus.Counter
	stalled     prometheus.Gauge
	lost        prometheus.Gauge
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		rooms: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "wolfden_rooms",
			Help: "Rooms held by this server, by status."}, []string{"status"}),
		games: prometheus.NewGauge(prometheus.GaugeOpts{Name: "wolfden_live_games",
			Help: "Games being played."}),
		connections: prometheus.NewGauge(prometheus.GaugeOpts{Name: "wolfden_connections",
			Help: "Open WebSocket connections."}),
		commands: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "wolfden_commands_total",
			Help: "Commands received, by result: ok, refused, busy."}, []string{"result"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "wolfden_command_seconds",
			Help:    "From a command's arrival to its events queued for every connection (stored first).",
			Buckets: prometheus.ExponentialBuckets(0.00005, 2, 19)}), // 50 µs to 13 s: a loaded node's p99 is seconds
		storeFails: prometheus.NewCounter(prometheus.CounterOpts{Name: "wolfden_store_write_failures_total",
			Help: "Writes the store refused (a full disk, a read-only file): rooms' and games' alike."}),
		stalled: prometheus.NewGauge(prometheus.GaugeOpts{Name: "wolfden_stalled_games",
			Help: "Games paused because their last write failed; each goes on once a write succeeds."}),
		lost: prometheus.NewGauge(prometheus.GaugeOpts{Name: "wolfden_rooms_lost",
			Help: "Games this server set aside as lost since it started: stored games it could not restore (a damaged record), at start-up or adopted from another node. Each stays in the store, with status lost, for the operator."}),
	}
	m.reg.MustRegister(m.rooms, m.games, m.connections, m.commands, m.latency, m.storeFails, m.stalled, m.lost,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

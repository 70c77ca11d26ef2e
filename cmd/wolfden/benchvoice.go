package main

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/bench/voice"
)

func benchVoiceCmd() *cobra.Command {
	var cfg voice.Config
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "voice [--rooms 20] [--seats 12] [--duration 20s] [--json]",
		Short: "Forward rooms' voices on this machine and report the CPU per stream and the jitter added",
		Long: `Open so many rooms' voices in this process, each seat a synthetic browser
(pion) that speaks all the time and hears every other seat — every track
carries a voice, the most a room forwards — and measure, once every browser
receives on every track: the process's CPU (server and browsers share it),
how long a room's tick takes to send its packets and how late ticks start,
and how far the packets' arrivals are from 20 ms apart (docs/benchmarks.md).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			res, err := voice.Run(cmd.Context(), cfg)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return json.NewEncoder(out).Encode(res)
			}
			fmt.Fprintf(out, "%d rooms of %d seats: %d streams forwarded, %d packets received in %.1f s\n",
				res.Rooms, res.Seats, res.Streams, res.Packets, res.Seconds)
			fmt.Fprintf(out, "CPU %.2f cores in all: %.1f µs of CPU per forwarded packet, %.2f%% of a core per 100 streams\n",
				res.CPU, res.CPU*1e6*res.Seconds/float64(max(res.Packets, 1)), res.CPU*100*100/float64(res.Streams))
			fmt.Fprintf(out, "a room's tick: p50 %.2f ms, p99 %.2f ms; ticks late p99 %.2f ms\n", res.TickP50, res.TickP99, res.LateP99)
			fmt.Fprintf(out, "arrival gaps off 20 ms: p50 %.2f ms, p99 %.2f ms\n", res.GapP50, res.GapP99)
			return nil
		},
	}
	cmd.Flags().IntVar(&cfg.Rooms, "rooms", 20, "rooms")
	cmd.Flags().IntVar(&cfg.Seats, "seats", 12, "seats (voices) a room")
	cmd.Flags().DurationVar(&cfg.Duration, "duration", 20*time.Second, "how long to measure, once every browser is connected")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}

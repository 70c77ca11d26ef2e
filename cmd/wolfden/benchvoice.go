package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	neturl "net/url"
	"time"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/bench/voice"
)

func benchVoiceCmd() *cobra.Command {
	var cfg voice.Config
	var asJSON, anyAddr bool
	var serve, url, cpuProfile string
	cmd := &cobra.Command{
		Use:   "voice [--rooms 20] [--seats 12] [--duration 20s] [--json] [--serve ADDR [--cpuprofile FILE] | --url URL]",
		Short: "Forward rooms' voices on this machine and report the CPU per stream and the jitter added",
		Long: `Open so many rooms' voices, each seat a synthetic browser (pion) that speaks
all the time and hears every other seat — every track carries a voice, the
most a room forwards — and measure, once every browser receives on every
track: the CPU, how long a room's tick takes to send its packets and how
late ticks start, and how far the packets' arrivals are from 20 ms apart
(docs/benchmarks.md).

Without --serve or --url, the server's rooms and the browsers share this
process, and the CPU is both sides'.

To measure each side's CPU on its own, split them in two processes:
  wolfden bench voice --serve 127.0.0.1:18100
runs the server's side alone (rooms made on demand behind a small HTTP
signalling, until interrupted; --cpuprofile writes each measurement's CPU
profile), and
  wolfden bench voice --url http://127.0.0.1:18100 --rooms 20
runs the browsers against it and prints both sides: the server's CPU per
forwarded packet and per stream, its ticks, the browsers' CPU, the packets
they received and the arrival gaps (which, once the browsers' process is
saturated, hold its own lateness in reading too). Pin each to a core
(taskset -c 0 for the server, taskset -c 1 for the browsers) so that the
server has its core whatever the browsers need.

--serve is a bench tool: its signalling has no authentication, and it
takes only a loopback address unless --any-address is given.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if serve != "" && url != "" {
				return errors.New("bench voice: --serve and --url go in two processes (the server's side, the browsers'), not together")
			}
			if cpuProfile != "" && serve == "" {
				return errors.New("bench voice: --cpuprofile profiles the server's side: it goes with --serve")
			}
			out := cmd.OutOrStdout()
			if serve != "" {
				return serveVoiceBench(cmd, serve, anyAddr, cpuProfile)
			}
			if url != "" {
				if u, err := neturl.Parse(url); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
					return fmt.Errorf("bench voice: --url %q is not the address of a --serve process (http://HOST:PORT)", url)
				}
				res, err := voice.RunRemote(cmd.Context(), url, cfg)
				if err != nil {
					return err
				}
				if asJSON {
					return json.NewEncoder(out).Encode(res)
				}
				voice.PrintSplit(out, res)
				return nil
			}
			res, err := voice.Run(cmd.Context(), cfg)
			if err != nil {
				return err
			}
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
	cmd.Flags().StringVar(&serve, "serve", "", "run the server's side alone, its signalling on this address (HOST:PORT), until interrupted")
	cmd.Flags().BoolVar(&anyAddr, "any-address", false, "let --serve listen on an address other than loopback (its signalling has no authentication)")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "with --serve: write each measurement's CPU profile of the server to FILE")
	cmd.Flags().StringVar(&url, "url", "", "run the browsers alone against the --serve process at this URL (http://HOST:PORT)")
	return cmd
}

// serveVoiceBench runs the server's side of a split bench until the
// command's context ends.
func serveVoiceBench(cmd *cobra.Command, addr string, anyAddr bool, cpuProfile string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("bench voice: --serve %q: %w", addr, err)
	}
	if ip := net.ParseIP(host); !anyAddr && host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("bench voice: --serve %q is not a loopback address; its signalling has no authentication (--any-address to take it anyway)", addr)
	}
	s, err := voice.NewServer(cpuProfile)
	if err != nil {
		return err
	}
	defer s.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("bench voice: --serve: %w", err)
	}
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(cmd.OutOrStdout(), "bench voice: serving on http://%s (wolfden bench voice --url http://%s)\n", ln.Addr(), ln.Addr())
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-cmd.Context().Done():
		return hs.Close()
	}
}

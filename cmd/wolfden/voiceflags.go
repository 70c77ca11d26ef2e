package main

import (
	"fmt"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"

	"github.com/pion/webrtc/v4"
	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/internal/voice"
)

// voiceFlags are serve's flags for the rooms' voice (docs/voice.md).
type voiceFlags struct {
	on       bool
	port     int
	ips      []string
	stun     []string
	turn     []string
	turnUser string
}

func (f *voiceFlags) add(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.BoolVar(&f.on, "voice", true, "voice in web rooms, opened and closed by the game (--voice=false: none)")
	fs.IntVar(&f.port, "voice-port", 0, "one UDP port for all voice media (env WOLFDEN_VOICE_PORT; 0: a port per connection)")
	fs.StringSliceVar(&f.ips, "voice-ip", nil, "the public addresses to announce for voice, behind 1:1 NAT such as a cloud VM's")
	fs.StringSliceVar(&f.stun, "stun", nil, "STUN servers for the browsers (stun:stun.example.com:3478)")
	fs.StringSliceVar(&f.turn, "turn", nil, "TURN servers for browsers behind strict NAT (turn:turn.example.com:3478; password in env WOLFDEN_TURN_PASSWORD)")
	fs.StringVar(&f.turnUser, "turn-user", "", "the TURN servers' user name")
}

// stack builds the voice's WebRTC stack, or nil with --voice=false.
func (f *voiceFlags) stack(changed func(string) bool, addr string) (*voice.Stack, error) {
	if !f.on {
		return nil, nil
	}
	if !changed("voice-port") {
		if v := os.Getenv("WOLFDEN_VOICE_PORT"); v != "" {
			p, err := strconv.Atoi(v)
			if err != nil {
				return nil, fmt.Errorf("serve: WOLFDEN_VOICE_PORT %q is not a port number", v)
			}
			f.port = p
		}
	}
	if f.port < 0 || f.port > 65535 {
		return nil, fmt.Errorf("serve: --voice-port %d is not a port (1 to 65535, or 0)", f.port)
	}
	for _, ip := range f.ips {
		if _, err := netip.ParseAddr(ip); err != nil {
			return nil, fmt.Errorf("serve: --voice-ip %q is not an IP address", ip)
		}
	}
	var ice []webrtc.ICEServer
	for _, u := range f.stun {
		if !strings.HasPrefix(u, "stun:") && !strings.HasPrefix(u, "stuns:") {
			return nil, fmt.Errorf("serve: --stun %q must start with stun: or stuns:", u)
		}
		ice = append(ice, webrtc.ICEServer{URLs: []string{u}})
	}
	if len(f.turn) > 0 {
		pass := os.Getenv("WOLFDEN_TURN_PASSWORD")
		if f.turnUser == "" || pass == "" {
			return nil, fmt.Errorf("serve: --turn needs --turn-user and the password in WOLFDEN_TURN_PASSWORD")
		}
		for _, u := range f.turn {
			if !strings.HasPrefix(u, "turn:") && !strings.HasPrefix(u, "turns:") {
				return nil, fmt.Errorf("serve: --turn %q must start with turn: or turns:", u)
			}
		}
		ice = append(ice, webrtc.ICEServer{URLs: f.turn, Username: f.turnUser, Credential: pass})
	}
	// A server on the loopback address serves this machine only: its
	// loopback candidates are the ones its browsers can reach.
	loop := false
	if host, _, err := net.SplitHostPort(addr); err == nil {
		if a, err := netip.ParseAddr(host); err == nil && a.IsLoopback() {
			loop = true
		}
		loop = loop || host == "localhost"
	}
	return voice.NewStack(voice.Options{ICEServers: ice, UDPPort: f.port, PublicIPs: f.ips, Loopback: loop})
}

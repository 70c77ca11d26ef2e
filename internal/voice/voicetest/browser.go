// Package voicetest plays a browser in the voice's tests: a pion peer that
// answers the server's offer, sends frames of its own mark on demand and
// keeps what each track brings.
package voicetest

import (
	"bytes"
	"sync"
	"testing"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// A Browser is one listener, and with a microphone one speaker.
type Browser struct {
	pc  *webrtc.PeerConnection
	mic *webrtc.TrackLocalStaticRTP
	seq uint16

	mu  sync.Mutex
	got map[string][]*rtp.Packet // track id → packets in order
}

// Mark is a speaker's frame: a 32 kb/s CELT frame of 79 bytes of b.
func Mark(b byte) []byte { return append([]byte{0xFC}, bytes.Repeat([]byte{b}, 79)...) }

// Answer makes a browser for the server's offer, with a microphone if mic,
// and returns it with its answer.
func Answer(t testing.TB, offer string, mic bool) (*Browser, string) {
	t.Helper()
	var m webrtc.MediaEngine
	if err := m.RegisterDefaultCodecs(); err != nil {
		t.Fatal(err)
	}
	var se webrtc.SettingEngine
	se.SetIncludeLoopbackCandidate(true)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	api := webrtc.NewAPI(webrtc.WithMediaEngine(&m), webrtc.WithSettingEngine(se))
	pc, err := api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		t.Fatal(err)
	}
	b := &Browser{pc: pc, got: map[string][]*rtp.Packet{}}
	t.Cleanup(func() { pc.Close() })
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		for {
			p, _, err := tr.ReadRTP()
			if err != nil {
				return
			}
			b.mu.Lock()
			b.got[tr.ID()] = append(b.got[tr.ID()], p)
			b.mu.Unlock()
		}
	})
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer}); err != nil {
		t.Fatal(err)
	}
	if mic {
		b.mic, err = webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "mic", "mic")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pc.AddTrack(b.mic); err != nil {
			t.Fatal(err)
		}
	}
	answer, err := pc.CreateAnswer(nil)
	if err != nil {
		t.Fatal(err)
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(answer); err != nil {
		t.Fatal(err)
	}
	<-gathered
	return b, pc.LocalDescription().SDP
}

// Speak sends one frame.
func (b *Browser) Speak(t testing.TB, frame []byte) {
	t.Helper()
	b.seq++
	if err := b.mic.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: b.seq}, Payload: frame}); err != nil {
		t.Fatal(err)
	}
}

// Packets are the packets track id brought so far.
func (b *Browser) Packets(id string) []*rtp.Packet {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]*rtp.Packet(nil), b.got[id]...)
}

// Count is how many packets track id brought.
func (b *Browser) Count(id string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.got[id])
}

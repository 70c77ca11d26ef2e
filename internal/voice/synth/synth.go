// Package synth is a synthetic browser for the voice's tests and load
// measurement (wolfden bench voice): a pion peer that answers the server's
// offer, sends frames on demand and keeps what each track brings, with the
// time each packet arrived.
package synth

import (
	"bytes"
	"sync"
	"time"

	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"
)

// A Browser is one listener, and with a microphone one speaker.
type Browser struct {
	pc  *webrtc.PeerConnection
	mic *webrtc.TrackLocalStaticRTP
	seq uint16

	mu   sync.Mutex
	got  map[string][]*rtp.Packet // track id → packets in order
	at   map[string][]time.Time   // when each arrived
	keep bool                     // keep the packets (tests), or only their times
}

// Mark is a speaker's frame: a 32 kb/s CELT frame of 79 bytes of b.
func Mark(b byte) []byte { return append([]byte{0xFC}, bytes.Repeat([]byte{b}, 79)...) }

// Answer makes a browser for the server's offer, with a microphone if mic,
// and returns it with its answer. keep: it keeps every packet (tests);
// otherwise only their arrival times.
func Answer(offer string, mic, keep bool) (*Browser, string, error) {
	var m webrtc.MediaEngine
	if err := m.RegisterDefaultCodecs(); err != nil {
		return nil, "", err
	}
	var se webrtc.SettingEngine
	se.SetIncludeLoopbackCandidate(true)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4})
	api := webrtc.NewAPI(webrtc.WithMediaEngine(&m), webrtc.WithSettingEngine(se))
	pc, err := api.NewPeerConnection(webrtc.Configuration{})
	if err != nil {
		return nil, "", err
	}
	b := &Browser{pc: pc, got: map[string][]*rtp.Packet{}, at: map[string][]time.Time{}, keep: keep}
	fail := func(err error) (*Browser, string, error) { pc.Close(); return nil, "", err }
	pc.OnTrack(func(tr *webrtc.TrackRemote, _ *webrtc.RTPReceiver) {
		for {
			p, _, err := tr.ReadRTP()
			if err != nil {
				return
			}
			now := time.Now()
			b.mu.Lock()
			if b.keep {
				b.got[tr.ID()] = append(b.got[tr.ID()], p)
			}
			b.at[tr.ID()] = append(b.at[tr.ID()], now)
			b.mu.Unlock()
		}
	})
	if err := pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeOffer, SDP: offer}); err != nil {
		return fail(err)
	}
	if mic {
		b.mic, err = webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, "mic", "mic")
		if err != nil {
			return fail(err)
		}
		if _, err := pc.AddTrack(b.mic); err != nil {
			return fail(err)
		}
	}
	answer, err := pc.CreateAnswer(nil)
	if err != nil {
		return fail(err)
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(answer); err != nil {
		return fail(err)
	}
	<-gathered
	return b, pc.LocalDescription().SDP, nil
}

// Close ends the browser's connection.
func (b *Browser) Close() error { return b.pc.Close() }

// Speak sends one frame.
func (b *Browser) Speak(frame []byte) error {
	b.seq++
	return b.mic.WriteRTP(&rtp.Packet{Header: rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: b.seq}, Payload: frame})
}

// Arrivals are the times track id's packets arrived.
func (b *Browser) Arrivals(id string) []time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]time.Time(nil), b.at[id]...)
}

// Tracks are the ids of the tracks that brought something.
func (b *Browser) Tracks() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var ids []string
	for id := range b.at {
		ids = append(ids, id)
	}
	return ids
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
	return len(b.at[id])
}

package voice

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/pion/interceptor"
	"github.com/pion/rtp"
	"github.com/pion/webrtc/v4"

	"github.com/wolfden/wolfden/internal/game"
	"github.com/wolfden/wolfden/rules"
)

// Tick is the forwarding beat: one 20 ms Opus frame per track per tick.
const Tick = 20 * time.Millisecond

// ticksOfTimestamp is one tick in Opus's 48 kHz RTP clock.
const ticksOfTimestamp = 48000 * Tick / time.Second

// jitter is how many of a speaker's packets wait at most: more, and the
// oldest goes (a browser whose clock runs fast must not build up delay).
const jitter = 5

// Options build the voice's WebRTC stack, shared by every room of a server.
type Options struct {
	// ICEServers are offered to the browsers (STUN, TURN) for the internet.
	ICEServers []webrtc.ICEServer
	// UDPPort, if not zero, carries every room's media on that one port
	// (a single port to open in a firewall); zero takes ephemeral ports.
	UDPPort int
	// PublicIPs, if set, are the addresses the host candidates announce
	// (a server behind 1:1 NAT, such as a cloud VM).
	PublicIPs []string
	// Loopback offers loopback candidates too: tests, and a judge on the
	// same machine as its only player.
	Loopback bool
	Log      *slog.Logger
}

// Stack is the voice's WebRTC API and its settings.
type Stack struct {
	api  *webrtc.API
	ice  []webrtc.ICEServer
	log  *slog.Logger
	mux  net.PacketConn // UDPPort's socket, closed with the stack
	stop func()
}

// fmtp asks each browser to send what the forwarding needs: constant
// bitrate, no discontinuous transmission (a silent seat sends as much as
// a speaking one), no in-band FEC (whose frames vary in size).
const fmtp = "minptime=10;useinbandfec=0;usedtx=0;cbr=1;stereo=0;maxaveragebitrate=32000"

// NewStack builds the voice's WebRTC stack.
func NewStack(o Options) (*Stack, error) {
	m := &webrtc.MediaEngine{}
	if err := m.RegisterCodec(webrtc.RTPCodecParameters{
		RTPCodecCapability: webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2, SDPFmtpLine: fmtp},
		PayloadType:        111,
	}, webrtc.RTPCodecTypeAudio); err != nil {
		return nil, err
	}
	// Reports only: no NACK buffers, no congestion feedback. What goes out
	// is the same for every listener whatever the game, and nothing of a
	// speaker's own stream (its audio level extension) is passed on.
	ir := &interceptor.Registry{}
	if err := webrtc.ConfigureRTCPReports(ir); err != nil {
		return nil, err
	}
	var se webrtc.SettingEngine
	se.SetIncludeLoopbackCandidate(o.Loopback)
	se.SetNetworkTypes([]webrtc.NetworkType{webrtc.NetworkTypeUDP4, webrtc.NetworkTypeUDP6})
	if len(o.PublicIPs) > 0 {
		se.SetNAT1To1IPs(o.PublicIPs, webrtc.ICECandidateTypeHost)
	}
	s := &Stack{ice: o.ICEServers, log: o.Log, stop: func() {}}
	if s.log == nil {
		s.log = slog.Default()
	}
	if o.UDPPort != 0 {
		c, err := net.ListenUDP("udp", &net.UDPAddr{Port: o.UDPPort})
		if err != nil {
			return nil, fmt.Errorf("voice: the media port %d: %w", o.UDPPort, err)
		}
		s.mux = c
		se.SetICEUDPMux(webrtc.NewICEUDPMux(nil, c))
	}
	s.api = webrtc.NewAPI(webrtc.WithMediaEngine(m), webrtc.WithInterceptorRegistry(ir), webrtc.WithSettingEngine(se))
	return s, nil
}

// ICEServers are the servers the browsers are to use beside the host's
// own candidates (STUN, TURN).
func (s *Stack) ICEServers() []webrtc.ICEServer { return s.ice }

// Close releases the media port.
func (s *Stack) Close() error {
	if s.mux != nil {
		return s.mux.Close()
	}
	return nil
}

// A Room forwards the voices of one game: every listener receives one
// track per other seat (a spectator one per seat), each carrying a packet
// of FrameSize bytes every Tick, the speaker's voice where the game lets
// this listener hear him now and silence everywhere else. So the packets a
// listener receives have the same number, size and timing whoever speaks
// and whatever the game's secrets: nights look the same from every seat.
type Room struct {
	st      *Stack
	players int

	mu     sync.Mutex
	voices game.Voices
	muted  uint32               // seats the host muted
	in     [][][]byte           // each seat's waiting packets, padded
	peers  map[*Peer]struct{}   // every listener
	byID   map[string]*Peer     // the same, by the id its browser names it with
	seats  map[rules.Seat]*Peer // the connection that speaks for each seat
	closed bool
	done   chan struct{}

	// Tick's own, reused from one tick to the next: each seat's frame of
	// this tick and the listeners it goes to.
	ticking   sync.Mutex
	cur       [][]byte
	listeners []*Peer
}

// NewRoom makes a game's voice for so many players. Nobody hears anybody
// until SetVoices is told the game's map. tick: forward on its own beat
// of Tick (false: the caller calls Tick, as the tests do).
func (s *Stack) NewRoom(players int, tick bool) *Room {
	r := &Room{st: s, players: players, in: make([][][]byte, players+1),
		peers: map[*Peer]struct{}{}, byID: map[string]*Peer{}, seats: map[rules.Seat]*Peer{}, done: make(chan struct{}),
		voices: game.Voices{Hears: make([]uint32, players+1)}, cur: make([][]byte, players+1)}
	if tick {
		go r.beat()
	}
	return r
}

func (r *Room) beat() {
	t := time.NewTicker(Tick)
	defer t.Stop()
	for {
		select {
		case <-r.done:
			return
		case <-t.C:
			r.Tick()
		}
	}
}

// SetVoices is the game's Voice hook: who may be heard by whom from now.
// It never waits on the network.
func (r *Room) SetVoices(v game.Voices) {
	r.mu.Lock()
	r.voices = v
	r.mu.Unlock()
}

// Mute lets the host silence a seat for everyone (on), or lift it.
func (r *Room) Mute(s rules.Seat, on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if on {
		r.muted |= 1 << uint(s)
	} else {
		r.muted &^= 1 << uint(s)
	}
}

// Close ends the room's voice: every connection is closed.
func (r *Room) Close() {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	close(r.done)
	peers := r.peers
	r.peers = map[*Peer]struct{}{}
	r.mu.Unlock()
	for p := range peers {
		p.pc.Close()
	}
}

// Tick forwards one frame on every track of every listener.
func (r *Room) Tick() {
	r.ticking.Lock() // one tick at a time: it reuses cur and listeners, and the peers' numbering
	defer r.ticking.Unlock()
	r.mu.Lock()
	cur := r.cur
	clear(cur)
	for s := 1; s <= r.players; s++ {
		if q := r.in[s]; len(q) > 0 {
			cur[s], r.in[s] = q[0], q[1:]
		}
	}
	voices, muted := r.voices, r.muted
	peers := r.listeners[:0]
	for p := range r.peers {
		peers = append(peers, p)
	}
	r.mu.Unlock()
	for _, p := range peers {
		p.send(cur, voices, muted)
	}
	clear(peers) // a closed peer is not kept alive until the next tick
	r.listeners = peers
}

// push queues a speaker's packet, padded; one that cannot be (another
// framing, too long) is dropped: its tick carries silence.
func (r *Room) push(p *Peer, payload []byte) {
	b, ok := pad(payload)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seats[p.seat] != p { // an older connection of the seat
		return
	}
	if !ok {
		b = nil
	}
	q := append(r.in[p.seat], b)
	if len(q) > jitter {
		q = q[len(q)-jitter:]
	}
	r.in[p.seat] = q
}

// A Peer is one browser's voice connection: a listener, and for a seat a
// speaker too.
type Peer struct {
	ID    string // random: the browser's answer names its connection by it
	room  *Room
	seat  rules.Seat // NoSeat: a spectator, who only listens
	pc    *webrtc.PeerConnection
	slots []rules.Seat // whose voice each outgoing track carries
	out   []*webrtc.TrackLocalStaticRTP

	seq uint16 // the packets' numbers and clock, shared by its tracks: they tick together
	ts  uint32
}

// ErrClosed is the answer to a join after the room's voice ended.
var ErrClosed = errors.New("voice: the room's voice has ended")

// ErrFull is the answer to a spectator's join when MaxSpectators listen.
var ErrFull = errors.New("voice: this room has as many spectators listening as it takes")

// MaxSpectators is how many spectators' connections a room's voice takes:
// each costs a track per seat on every tick.
const MaxSpectators = 16

// Seat is the seat a connection speaks for (NoSeat: a spectator).
func (p *Peer) Seat() rules.Seat { return p.seat }

// NextTimestamp is the RTP timestamp of the packets the next tick writes
// on every track of this listener: a test tells by it which tick a packet
// it receives belongs to (in flight or on a track not yet bound, a packet
// cannot say so itself).
func (p *Peer) NextTimestamp() uint32 {
	p.room.ticking.Lock()
	defer p.room.ticking.Unlock()
	return p.ts
}

// Peer is the connection of that id, if it is open.
func (r *Room) Peer(id string) *Peer {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.byID[id]
}

// Join opens a connection for seat (NoSeat: a spectator) and returns the
// server's offer: the browser answers it (Answer). A seat's new
// connection replaces its older one.
func (r *Room) Join(ctx context.Context, seat rules.Seat) (*Peer, string, error) {
	if int(seat) > r.players {
		return nil, "", fmt.Errorf("voice: no seat %d in a game of %d", seat, r.players)
	}
	pc, err := r.st.api.NewPeerConnection(webrtc.Configuration{ICEServers: r.st.ice})
	if err != nil {
		return nil, "", err
	}
	var id [16]byte
	if _, err := crand.Read(id[:]); err != nil {
		pc.Close()
		return nil, "", err
	}
	p := &Peer{ID: hex.EncodeToString(id[:]), room: r, seat: seat, pc: pc, seq: uint16(rand.Uint32()), ts: rand.Uint32()}
	fail := func(err error) (*Peer, string, error) { pc.Close(); return nil, "", err }
	if seat != rules.NoSeat {
		if _, err := pc.AddTransceiverFromKind(webrtc.RTPCodecTypeAudio,
			webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionRecvonly}); err != nil {
			return fail(err)
		}
		pc.OnTrack(func(t *webrtc.TrackRemote, _ *webrtc.RTPReceiver) { p.read(t) })
	}
	for s := rules.Seat(1); int(s) <= r.players; s++ {
		if s == seat {
			continue
		}
		id := fmt.Sprintf("seat-%d", s)
		t, err := webrtc.NewTrackLocalStaticRTP(webrtc.RTPCodecCapability{MimeType: webrtc.MimeTypeOpus, ClockRate: 48000, Channels: 2}, id, id)
		if err != nil {
			return fail(err)
		}
		// A transceiver of its own, send only: AddTrack would reuse the
		// microphone's line for the first track, and a browser that sends
		// on it would stop hearing that seat.
		tr, err := pc.AddTransceiverFromTrack(t, webrtc.RTPTransceiverInit{Direction: webrtc.RTPTransceiverDirectionSendonly})
		if err != nil {
			return fail(err)
		}
		go drain(tr.Sender()) // its RTCP must be read for the reports to run
		p.slots, p.out = append(p.slots, s), append(p.out, t)
	}
	offer, err := pc.CreateOffer(nil)
	if err != nil {
		return fail(err)
	}
	gathered := webrtc.GatheringCompletePromise(pc)
	if err := pc.SetLocalDescription(offer); err != nil {
		return fail(err)
	}
	select {
	case <-gathered:
	case <-ctx.Done():
		return fail(ctx.Err())
	}
	pc.OnConnectionStateChange(func(s webrtc.PeerConnectionState) {
		if s == webrtc.PeerConnectionStateFailed || s == webrtc.PeerConnectionStateClosed {
			r.leave(p)
		}
	})
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return fail(ErrClosed)
	}
	if seat == rules.NoSeat && len(r.peers)-len(r.seats) >= MaxSpectators {
		r.mu.Unlock()
		return fail(ErrFull)
	}
	r.peers[p] = struct{}{}
	r.byID[p.ID] = p
	var old *Peer
	if seat != rules.NoSeat {
		old = r.seats[seat]
		r.seats[seat] = p
		r.in[seat] = nil
	}
	r.mu.Unlock()
	if old != nil {
		old.Close()
	}
	return p, pc.LocalDescription().SDP, nil
}

// Answer takes the browser's answer to the offer of Join.
func (p *Peer) Answer(sdp string) error {
	return p.pc.SetRemoteDescription(webrtc.SessionDescription{Type: webrtc.SDPTypeAnswer, SDP: sdp})
}

// Close ends the connection.
func (p *Peer) Close() {
	p.room.leave(p)
	p.pc.Close()
}

func (r *Room) leave(p *Peer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.peers, p)
	delete(r.byID, p.ID)
	if r.seats[p.seat] == p {
		delete(r.seats, p.seat)
		r.in[p.seat] = nil
	}
}

// read takes the browser's microphone track until it ends. One buffer
// and one packet serve every read (push copies the payload as it pads
// it): ReadRTP would allocate both for each of a speaker's 50 packets a
// second. A packet that does not parse is skipped.
func (p *Peer) read(t *webrtc.TrackRemote) {
	buf := make([]byte, 1500)
	var pkt rtp.Packet
	for {
		n, _, err := t.Read(buf)
		if err != nil {
			return
		}
		if pkt.Unmarshal(buf[:n]) == nil {
			p.room.push(p, pkt.Payload)
		}
	}
}

// send writes one tick's frame on each of the listener's tracks.
func (p *Peer) send(cur [][]byte, v game.Voices, muted uint32) {
	for i, s := range p.slots {
		payload := silence
		if cur[s] != nil && muted&(1<<uint(s)) == 0 && v.Heard(p.seat, s) {
			payload = cur[s]
		}
		// An unbound track (the browser has not answered yet) writes
		// nowhere; a closing connection's error ends with it.
		_ = p.out[i].WriteRTP(&rtp.Packet{
			Header:  rtp.Header{Version: 2, PayloadType: 111, SequenceNumber: p.seq, Timestamp: p.ts},
			Payload: payload,
		})
	}
	p.seq++
	p.ts += uint32(ticksOfTimestamp)
}

func drain(s *webrtc.RTPSender) {
	buf := make([]byte, 1500)
	for {
		if _, _, err := s.Read(buf); err != nil {
			return
		}
	}
}

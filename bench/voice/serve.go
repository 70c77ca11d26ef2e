package voice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wolfden/wolfden/internal/voice"
	"github.com/wolfden/wolfden/rules"
)

// MaxRooms bounds the rooms a Server holds at once.
const MaxRooms = 200

// Server is the server's side of a split run (wolfden bench voice
// --serve): a voice stack whose rooms are made on demand, each ticking on
// its own beat, behind a small HTTP signalling that RunRemote speaks:
//
//	POST /rooms {"seats":12}            → {"room":0}
//	POST /join {"room":0,"seat":3}      → {"id":"…","offer":"…"}
//	POST /answer {"id":"…","sdp":"…"}   → 204
//	POST /measure/start                 → 204
//	POST /measure/stop                  → ServerFigures
//	POST /reset                         → 204, every room closed
//
// It has no authentication: it is a bench tool, for loopback.
type Server struct {
	st         *voice.Stack
	cpuProfile string

	mu        sync.Mutex
	ctx       context.Context // the rooms' beats end with it
	stopRooms context.CancelFunc
	rooms     []*serverRoom
	peers     map[string]*voice.Peer
	measuring bool
	cpu0      time.Duration
	t0        time.Time
	profile   *os.File
}

type serverRoom struct {
	r         *voice.Room
	seats     int
	listeners atomic.Int64 // connections joined, each with seats−1 tracks
	k         ticks
}

// ServerFigures are the server process's own over a measurement window.
type ServerFigures struct {
	Seconds float64
	// CPU is the server process's CPU (getrusage SELF) per second of the
	// window, in cores.
	CPU float64
	// Packets are the frames the rooms wrote, one per track of every
	// connection joined per tick (the browsers' side waits until each
	// receives on every track before it starts the window).
	Packets int64
	// TickP50, TickP99: how long a room's tick took (ms), rooms pooled;
	// LateP99: how late ticks started against their schedule (ms).
	TickP50, TickP99, LateP99 float64
	Rooms                     int
}

// NewServer makes a Server on a voice stack of its own (ephemeral UDP
// ports, loopback candidates offered). cpuProfile, if set, is a file that
// each measurement window's CPU profile is written to.
func NewServer(cpuProfile string) (*Server, error) {
	st, err := voice.NewStack(voice.Options{Loopback: true})
	if err != nil {
		return nil, err
	}
	s := &Server{st: st, cpuProfile: cpuProfile, peers: map[string]*voice.Peer{}}
	s.ctx, s.stopRooms = context.WithCancel(context.Background())
	return s, nil
}

// Close ends every room and the stack.
func (s *Server) Close() error {
	s.reset()
	s.mu.Lock()
	s.stopRooms()
	s.mu.Unlock()
	return s.st.Close()
}

// stopProfile ends the window's CPU profile, if one is being written.
func (s *Server) stopProfile() error {
	if s.profile == nil {
		return nil
	}
	pprof.StopCPUProfile()
	err := s.profile.Close()
	s.profile = nil
	if err != nil {
		return fmt.Errorf("bench voice: --cpuprofile: %w", err)
	}
	return nil
}

// reset closes every room and ends a measurement under way; the next
// run starts afresh.
func (s *Server) reset() {
	s.mu.Lock()
	rooms := s.rooms
	s.stopRooms()
	s.ctx, s.stopRooms = context.WithCancel(context.Background())
	s.rooms, s.peers, s.measuring = nil, map[string]*voice.Peer{}, false
	_ = s.stopProfile() // an abandoned window's profile is not wanted
	s.mu.Unlock()
	for _, r := range rooms {
		r.r.Close()
	}
}

// ServeHTTP is the signalling.
func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		http.Error(w, "bench voice: POST only", http.StatusMethodNotAllowed)
		return
	}
	req.Body = http.MaxBytesReader(w, req.Body, 1<<20)
	var out any
	var err error
	switch req.URL.Path {
	case "/rooms":
		out, err = s.newRoom(req.Body)
	case "/join":
		out, err = s.join(req.Context(), req.Body)
	case "/answer":
		err = s.answer(req.Body)
	case "/measure/start":
		err = s.start()
	case "/measure/stop":
		out, err = s.stop()
	case "/reset":
		s.reset()
	default:
		http.NotFound(w, req)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if out == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

func decode(r io.Reader, v any) error {
	d := json.NewDecoder(r)
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("bench voice: the request's body: %w", err)
	}
	return nil
}

type roomReq struct {
	Seats int `json:"seats"`
}

type roomResp struct {
	Room int `json:"room"`
}

func (s *Server) newRoom(body io.Reader) (roomResp, error) {
	var q roomReq
	if err := decode(body, &q); err != nil {
		return roomResp{}, err
	}
	if q.Seats < 2 || q.Seats > rules.MaxSeats {
		return roomResp{}, fmt.Errorf("bench voice: a room has 2 to %d seats, not %d", rules.MaxSeats, q.Seats)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.rooms) >= MaxRooms {
		return roomResp{}, fmt.Errorf("bench voice: %d rooms are open already, the most a server holds (POST /reset)", MaxRooms)
	}
	sr := &serverRoom{r: s.st.NewRoom(q.Seats, false), seats: q.Seats}
	sr.r.SetVoices(everyoneHearsEveryone(q.Seats))
	sr.k.on = s.measuring
	s.rooms = append(s.rooms, sr)
	go sr.k.beat(s.ctx, sr.r, func() int { return int(sr.listeners.Load()) * (sr.seats - 1) })
	return roomResp{Room: len(s.rooms) - 1}, nil
}

type joinReq struct {
	Room int        `json:"room"`
	Seat rules.Seat `json:"seat"`
}

type joinResp struct {
	ID    string `json:"id"`
	Offer string `json:"offer"`
}

func (s *Server) join(ctx context.Context, body io.Reader) (joinResp, error) {
	var q joinReq
	if err := decode(body, &q); err != nil {
		return joinResp{}, err
	}
	s.mu.Lock()
	if q.Room < 0 || q.Room >= len(s.rooms) {
		s.mu.Unlock()
		return joinResp{}, fmt.Errorf("bench voice: no room %d", q.Room)
	}
	sr := s.rooms[q.Room]
	s.mu.Unlock()
	if q.Seat < 1 || int(q.Seat) > sr.seats {
		return joinResp{}, fmt.Errorf("bench voice: room %d has seats 1 to %d, not %d", q.Room, sr.seats, q.Seat)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	p, offer, err := sr.r.Join(ctx, q.Seat)
	if err != nil {
		return joinResp{}, err
	}
	s.mu.Lock()
	s.peers[p.ID] = p
	s.mu.Unlock()
	sr.listeners.Add(1)
	return joinResp{ID: p.ID, Offer: offer}, nil
}

type answerReq struct {
	ID  string `json:"id"`
	SDP string `json:"sdp"`
}

func (s *Server) answer(body io.Reader) error {
	var q answerReq
	if err := decode(body, &q); err != nil {
		return err
	}
	s.mu.Lock()
	p := s.peers[q.ID]
	s.mu.Unlock()
	if p == nil {
		return fmt.Errorf("bench voice: no connection %q", q.ID)
	}
	return p.Answer(q.SDP)
}

func (s *Server) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.measuring {
		return errors.New("bench voice: a measurement is under way already")
	}
	if s.cpuProfile != "" {
		f, err := os.Create(s.cpuProfile)
		if err != nil {
			return fmt.Errorf("bench voice: --cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("bench voice: --cpuprofile: %w", err)
		}
		s.profile = f
	}
	s.measuring = true
	for _, r := range s.rooms {
		r.k.set(true)
	}
	s.cpu0, s.t0 = cpuTime(), time.Now()
	return nil
}

func (s *Server) stop() (ServerFigures, error) {
	cpu1, t1 := cpuTime(), time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.measuring {
		return ServerFigures{}, errors.New("bench voice: no measurement is under way (POST /measure/start)")
	}
	s.measuring = false
	if err := s.stopProfile(); err != nil {
		return ServerFigures{}, err
	}
	f := ServerFigures{Seconds: t1.Sub(s.t0).Seconds(), Rooms: len(s.rooms)}
	f.CPU = (cpu1 - s.cpu0).Seconds() / f.Seconds
	var took, late []float64
	for _, r := range s.rooms {
		r.k.set(false)
		r.k.mu.Lock()
		took, late = append(took, r.k.took...), append(late, r.k.late...)
		f.Packets += r.k.packets
		r.k.mu.Unlock()
	}
	f.TickP50, f.TickP99, f.LateP99 = pct(took, 50), pct(took, 99), pct(late, 99)
	return f, nil
}

//go:build !js

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wolfden/wolfden/internal/local"
	"github.com/wolfden/wolfden/rules"
)

// timers of the compared games: long, so that no step ever times out; the
// games are unpaced (local.Request.Unpaced: a night's stage ends once its
// bots have acted), so they take milliseconds, and no bot is timed out
// however loaded the machine (paced, with short stages, a bot timed out
// now and then on a loaded machine, in one build and not the other).
var timers = map[string]string{"setup": "1h", "night": "1h", "witch": "1h", "speech": "1h", "vote": "1h",
	"other": "1h", "bot": "0s"}

type gameSpec struct {
	Preset  string            `json:"preset"`
	Seed    uint64            `json:"seed"`
	Timers  map[string]string `json:"timers"`
	Unpaced bool              `json:"unpaced"`
}

// played is what the comparison reads of a game's replay: the whole log,
// secrets included, the deal and the messages.
type played struct {
	Events json.RawMessage `json:"events"`
	Roles  json.RawMessage `json:"roles"`
	Seed   uint64          `json:"seed"`
	Chats  json.RawMessage `json:"chats"`
}

// buildEngine builds this package for the browser (GOOS=js GOARCH=wasm),
// with the flags of the web build (web/build/engine.js).
func buildEngine(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "engine.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags=-s -w -buildid=", "-o", out, ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the engine for js/wasm: %v\n%s", err, b)
	}
	return out
}

// TestTheEngineOnTheDeviceRecordsTheNativeEvents: for a seeded game of bots
// of every preset, the engine built for the browser, run under Node,
// records the very events the same engine records built for the server
// (amd64, the actor the server runs), byte for byte (the deal, every night
// and day, the end), and the same messages.
func TestTheEngineOnTheDeviceRecordsTheNativeEvents(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node is needed to run the engine built for the browser (Node 20 or later): ", err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	wasmExec := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")

	var specs []gameSpec
	for i, p := range rules.Presets() {
		specs = append(specs, gameSpec{Preset: p.Name, Seed: uint64(1000 + i), Timers: timers, Unpaced: true})
	}

	// The device: the wasm build under Node, while the native build plays.
	wasm := buildEngine(t)
	var device map[string]played
	var deviceErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		device, deviceErr = runNode(node, wasm, wasmExec, specs)
	}()

	// The same games natively: the engine as the server runs it
	// (internal/game on the memory store), through the same requests.
	dev := local.New(nil)
	native := make([]played, len(specs))
	errs := make([]error, len(specs))
	for i, g := range specs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			native[i], errs[i] = nativeGame(dev, g)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s natively: %v", specs[i].Preset, err)
		}
	}
	if deviceErr != nil {
		t.Fatalf("the engine under Node: %v", deviceErr)
	}
	for i, g := range specs {
		n, d := native[i], device[g.Preset]
		if n.Seed != d.Seed || !bytes.Equal(n.Roles, d.Roles) {
			t.Errorf("%s seed %d: the deal differs:\nnative %d %s\ndevice %d %s", g.Preset, g.Seed, n.Seed, n.Roles, d.Seed, d.Roles)
		}
		if !bytes.Equal(n.Events, d.Events) {
			t.Errorf("%s seed %d: the events differ from byte %d:\nnative %s\ndevice %s", g.Preset, g.Seed,
				firstDiff(n.Events, d.Events), around(n.Events, d.Events), around(d.Events, n.Events))
		}
		if !bytes.Equal(n.Chats, d.Chats) {
			t.Errorf("%s seed %d: the messages differ:\nnative %s\ndevice %s", g.Preset, g.Seed, n.Chats, d.Chats)
		}
		if len(n.Events) < 100 {
			t.Errorf("%s: a game of %d bytes of events is no game", g.Preset, len(n.Events))
		}
	}
	t.Logf("%d presets compared", len(specs))
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// around is a's bytes around its first difference with b.
func around(a, b []byte) string {
	i := firstDiff(a, b)
	return string(a[max(0, i-200):min(len(a), i+200)])
}

// nativeGame plays a game as play.mjs does in the wasm build: create,
// start, wait for the end, the replay.
func nativeGame(d *local.Device, g gameSpec) (played, error) {
	ctx := context.Background()
	ask := func(method, path, token string, body any, out any) error {
		var b []byte
		if body != nil {
			b, _ = json.Marshal(body)
		}
		status, resp := d.Handle(ctx, method, path, token, b)
		if status >= 300 {
			return fmt.Errorf("%s %s: %d %s", method, path, status, resp)
		}
		return json.Unmarshal(resp, out)
	}
	var made struct {
		Host string `json:"host_token"`
		Room struct {
			ID string `json:"id"`
		} `json:"room"`
	}
	if err := ask("POST", "/api/rooms", "", map[string]any{"preset": g.Preset, "practice": true, "seed": g.Seed,
		"timers": g.Timers, "unpaced": g.Unpaced}, &made); err != nil {
		return played{}, err
	}
	var room struct {
		Status  string `json:"status"`
		Version int64  `json:"version"`
	}
	if err := ask("POST", "/api/rooms/"+made.Room.ID+"/start", made.Host, nil, &room); err != nil {
		return played{}, err
	}
	for room.Status != "over" {
		if err := ask("GET", fmt.Sprintf("/api/rooms/%s?after=%d", made.Room.ID, room.Version), "", nil, &room); err != nil {
			return played{}, err
		}
	}
	var p played
	err := ask("GET", "/api/rooms/"+made.Room.ID+"/replay", "", nil, &p)
	return p, err
}

func runNode(node, wasm, wasmExec string, specs []gameSpec) (map[string]played, error) {
	in, _ := json.Marshal(specs)
	cmd := exec.Command(node, filepath.Join("testdata", "play.mjs"), wasm, wasmExec)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, stderr.String())
	}
	got := map[string]played{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var line struct {
			Preset string `json:"preset"`
			Replay played `json:"replay"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, fmt.Errorf("a line of play.mjs: %v", err)
		}
		got[line.Preset] = line.Replay
	}
	if len(got) != len(specs) {
		return nil, fmt.Errorf("%d games played of %d\n%s", len(got), len(specs), stderr.String())
	}
	return got, nil
}

package voice

import (
	"context"
	"testing"
	"time"
)

// TestARunMeasuresEveryStream runs one small room briefly: every browser
// receives on every track, and the figures are filled in.
func TestARunMeasuresEveryStream(t *testing.T) {
	res, err := Run(context.Background(), Config{Rooms: 1, Seats: 3, Duration: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Streams != 6 || res.Packets == 0 || res.CPU <= 0 || res.TickP99 <= 0 {
		t.Fatalf("%+v", res)
	}
}

func TestABadConfigurationIsRefused(t *testing.T) {
	for _, c := range []Config{{Rooms: 0, Seats: 3, Duration: time.Second}, {Rooms: 1, Seats: 1, Duration: time.Second}, {Rooms: 1, Seats: 3}} {
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("%+v was taken", c)
		}
	}
}

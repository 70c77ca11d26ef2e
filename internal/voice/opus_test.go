package voice

import (
	"bytes"
	"testing"
)

// unpad reads a code 3 packet back (RFC 6716 §3.2.5, constant bitrate
// frames, padding): the TOC as a code 0 or 1 packet's and the frames' data.
func unpad(t *testing.T, p []byte) (toc byte, data []byte) {
	t.Helper()
	if len(p) < 3 || p[0]&3 != 3 {
		t.Fatalf("not a code 3 packet: % x", p)
	}
	m := p[1] & 0x3F
	if p[1]&0x80 != 0 || p[1]&0x40 == 0 || m < 1 || m > 2 {
		t.Fatalf("frame count byte %#x: want CBR, padded, one or two frames", p[1])
	}
	padding := int(p[2])
	data = p[3 : len(p)-padding]
	if len(data)%int(m) != 0 {
		t.Fatalf("%d bytes of data for %d equal frames", len(data), m)
	}
	code := byte(0)
	if m == 2 {
		code = 1
	}
	return p[0]&^3 | code, data
}

func TestEveryPacketIsFrameSizeBytes(t *testing.T) {
	two := append([]byte{0xFD}, bytes.Repeat([]byte{7}, 60)...) // code 1: two frames of 30 bytes
	cases := []struct {
		name string
		in   []byte
		ok   bool
	}{
		{"silence", silentFrame, true},
		{"a 32 kb/s frame", append([]byte{0xFC}, bytes.Repeat([]byte{5}, 79)...), true},
		{"the longest that fits", append([]byte{0xFC}, bytes.Repeat([]byte{5}, FrameSize-3)...), true},
		{"one byte too long", append([]byte{0xFC}, bytes.Repeat([]byte{5}, FrameSize-2)...), false},
		{"two equal frames", two, true},
		{"code 1 of odd length", two[:60], false},
		{"code 2", []byte{0xFE, 1, 2, 3}, false},
		{"code 3", []byte{0xFF, 0x01, 2}, false},
		{"empty", nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, ok := pad(c.in)
			if ok != c.ok {
				t.Fatalf("pad: ok %v, want %v", ok, c.ok)
			}
			if !ok {
				return
			}
			if len(out) != FrameSize {
				t.Fatalf("%d bytes, want %d", len(out), FrameSize)
			}
			toc, data := unpad(t, out)
			if toc != c.in[0] || !bytes.Equal(data, c.in[1:]) {
				t.Fatalf("read back %#x % x, want %#x % x", toc, data, c.in[0], c.in[1:])
			}
		})
	}
	if len(silence) != FrameSize {
		t.Fatalf("silence is %d bytes", len(silence))
	}
}

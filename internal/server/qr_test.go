package server

import (
	"context"
	"image"
	"image/color"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"testing"

	goqr "github.com/piglig/go-qr"

	"github.com/wolfden/wolfden/internal/client"
)

// decodeSVG paints the modules of a QR code's SVG (one unit square per
// module, as qrSVG draws them) and reads the picture back with the
// library's decoder, as a phone's camera would.
func decodeSVG(t *testing.T, svg []byte) string {
	t.Helper()
	vb := regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`).FindSubmatch(svg)
	if vb == nil {
		t.Fatalf("no viewBox in %.200s", svg)
	}
	dim, _ := strconv.Atoi(string(vb[1]))
	const px = 6
	img := image.NewGray(image.Rect(0, 0, dim*px, dim*px))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	mods := regexp.MustCompile(`M(\d+),(\d+)h1v1h-1z`).FindAllSubmatch(svg, -1)
	if len(mods) < 21*21/4 {
		t.Fatalf("%d dark modules: not a QR code", len(mods))
	}
	for _, m := range mods {
		x, _ := strconv.Atoi(string(m[1]))
		y, _ := strconv.Atoi(string(m[2]))
		for dy := range px {
			for dx := range px {
				img.SetGray(x*px+dx, y*px+dy, color.Gray{})
			}
		}
	}
	text, err := goqr.Decode(img)
	if err != nil {
		t.Fatalf("the QR code does not decode: %v", err)
	}
	return text
}

func getQR(t *testing.T, ts *testServer, id, host string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", ts.http.URL+"/api/rooms/"+id+"/qr.svg", nil)
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// The room's QR code holds its join link on the host the client used, or
// on --public-url; it decodes back to that link.
func TestTheRoomsQRCodeHoldsItsJoinLink(t *testing.T) {
	ts := newTestServer(t)
	var c client.Created
	if err := ts.api.Do(context.Background(), "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &c); err != nil {
		t.Fatal(err)
	}
	code := roomCode(t, ts, c.Room.ID)
	for host, want := range map[string]string{
		"":                  ts.http.URL + "/j/" + code,
		"192.168.1.20:8080": "http://192.168.1.20:8080/j/" + code,
		"wolfden.local":     "http://wolfden.local/j/" + code,
	} {
		resp, svg := getQR(t, ts, c.Room.ID, host)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/svg+xml" {
			t.Fatalf("host %q: %d %s: %s", host, resp.StatusCode, resp.Header.Get("Content-Type"), svg)
		}
		if got := decodeSVG(t, svg); got != want {
			t.Errorf("host %q: the QR code holds %q, want %q", host, got, want)
		}
		if got := resp.Header.Get("X-Join-Link"); got != want {
			t.Errorf("host %q: X-Join-Link %q, want %q", host, got, want)
		}
	}

	pub := newTestServerWith(t, Options{PublicURL: "https://wolf.example.com/"})
	if err := pub.api.Do(context.Background(), "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &c); err != nil {
		t.Fatal(err)
	}
	_, svg := getQR(t, pub, c.Room.ID, "")
	if got, want := decodeSVG(t, svg), "https://wolf.example.com/j/"+roomCode(t, pub, c.Room.ID); got != want {
		t.Errorf("behind a proxy: the QR code holds %q, want %q", got, want)
	}
}

func TestTheQRCodeRefusesWhatItCannotDraw(t *testing.T) {
	ts := newTestServer(t)
	var c client.Created
	if err := ts.api.Do(context.Background(), "POST", "/api/rooms", "", map[string]any{"preset": "std-9"}, &c); err != nil {
		t.Fatal(err)
	}
	if resp, body := getQR(t, ts, "nosuchroom", ""); resp.StatusCode != 404 {
		t.Errorf("no such room: %d %s", resp.StatusCode, body)
	}
	if resp, body := getQR(t, ts, c.Room.ID, "evil.example/path"); resp.StatusCode != 400 {
		t.Errorf("a host with a path: %d %s", resp.StatusCode, body)
	}
	for _, u := range []string{"ftp://x", "wolf.example.com", "https://x/?a=1", "https://"} {
		if CheckPublicURL(u) == nil {
			t.Errorf("--public-url %q was taken", u)
		}
	}
	for _, u := range []string{"https://wolf.example.com", "http://10.0.0.2:8080/wolfden"} {
		if err := CheckPublicURL(u); err != nil {
			t.Errorf("--public-url %q: %v", u, err)
		}
	}
}

// BenchmarkQRSVG draws the QR code of a typical join link.
func BenchmarkQRSVG(b *testing.B) {
	var n int
	for b.Loop() {
		svg, err := qrSVG("http://192.168.1.20:8080/j/K7QX")
		if err != nil {
			b.Fatal(err)
		}
		n = len(svg)
	}
	b.ReportMetric(float64(n), "bytes")
}

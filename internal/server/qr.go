package server

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	goqr "github.com/piglig/go-qr"
)

// The QR code of a room's join link, drawn by the server so that it works
// on a local network without the internet: the room screen and the table
// device show it, phones scan it and land on /j/CODE (codes.go).

// qrBorder is the quiet zone around the code, in modules: the four the
// standard asks for, which phone cameras need to find it.
const qrBorder = 4

// roomQR answers GET /api/rooms/{id}/qr.svg: the QR code of the room's
// join link, on the URL the client used (or Options.PublicURL).
func (s *Server) roomQR(w http.ResponseWriter, r *http.Request) {
	rm, err := s.roomFor(r.Context(), r.PathValue("id"))
	if err != nil {
		writeErr(w, err)
		return
	}
	rm.mu.Lock()
	code, id := rm.rec.Code, rm.rec.ID
	rm.mu.Unlock()
	if !s.codes.holds(code, id) {
		writeErr(w, fail(http.StatusNotFound, "no_code", "this room has no code any more: its game is over"))
		return
	}
	link, err := s.joinURL(r, code)
	if err != nil {
		writeErr(w, fail(http.StatusBadRequest, "bad_host", "%v", err))
		return
	}
	svg, err := qrSVG(link)
	if err != nil {
		writeErr(w, fail(http.StatusInternalServerError, "qr", "the QR code could not be drawn: %v", err))
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Cache-Control", "no-cache")
	// Opened on its own, the picture may not run or load anything.
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Header().Set("X-Join-Link", link) // what the code holds, for a caption
	_, _ = w.Write(svg)
}

// qrSVG draws text as a QR code (error correction M: a phone still reads a
// slightly damaged or glaring screen), one unit per module, scaled by the
// page that shows it.
func qrSVG(text string) ([]byte, error) {
	q, err := goqr.EncodeText(text, goqr.Medium)
	if err != nil {
		return nil, err
	}
	return q.ToSVGBytes(goqr.NewQrCodeImgConfig(1, qrBorder))
}

// joinURL is the link of a room's code: on Options.PublicURL when the
// server is behind a proxy that changes its address, else on the scheme
// and host the request came to, which the phones at the table reach too.
func (s *Server) joinURL(r *http.Request, code string) (string, error) {
	if s.opts.PublicURL != "" {
		return strings.TrimRight(s.opts.PublicURL, "/") + "/j/" + code, nil
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	peer, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		peer = r.RemoteAddr
	}
	if p := r.Header.Get("X-Forwarded-Proto"); (p == "http" || p == "https") && s.trusted(peer) {
		scheme = p
	}
	if err := checkHost(r.Host); err != nil {
		return "", err
	}
	u := url.URL{Scheme: scheme, Host: r.Host, Path: "/j/" + code}
	return u.String(), nil
}

// checkHost refuses a Host header that is not a host and port.
func checkHost(h string) error {
	if h == "" {
		return errors.New("the request names no host; start the server with --public-url")
	}
	u, err := url.Parse("//" + h)
	if err != nil || u.Host != h || u.User != nil || u.Path != "" {
		return fmt.Errorf("the request's host %q is not a host name and port", h)
	}
	return nil
}

// CheckPublicURL checks a --public-url: an http or https URL with a host,
// and perhaps a path prefix, without a query.
func CheckPublicURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("--public-url %q must be an http:// or https:// URL such as https://wolf.example.com, without a query", s)
	}
	return nil
}

package autotls

import (
	"net/http/httptest"
	"testing"
)

// TestRedirectStaysOnOurNames: plain HTTP goes to the same path over
// HTTPS on the name asked for when it is one of ours, and otherwise on the
// first: a request's Host never chooses where a visitor is sent.
func TestRedirectStaysOnOurNames(t *testing.T) {
	for _, c := range []struct {
		name      string
		port      int
		method    string
		host, uri string
		code      int
		location  string
	}{
		{"our name, port 443", 443, "GET", "wolf.example.org", "/j/ABCD?x=1", 301, "https://wolf.example.org/j/ABCD?x=1"},
		{"our second name", 443, "GET", "loup.example.org:80", "/", 301, "https://loup.example.org/"},
		{"a name with its root dot", 443, "HEAD", "loup.example.org.", "/", 301, "https://loup.example.org/"},
		{"another port", 8443, "GET", "wolf.example.org:8080", "/room/1", 301, "https://wolf.example.org:8443/room/1"},
		{"someone else's host", 443, "GET", "evil.example.com", "/x", 301, "https://wolf.example.org/x"},
		{"a POST is not resent", 443, "POST", "wolf.example.org", "/api/rooms", 400, ""},
		{"an unknown challenge is not redirected", 443, "GET", "wolf.example.org", "/.well-known/acme-challenge/abc", 404, ""},
		{"a challenge on another port is ours", 443, "GET", "wolf.example.org:8080", "/.well-known/acme-challenge/abc", 404, ""},
		{"a challenge for someone else's host", 443, "GET", "evil.example.com", "/.well-known/acme-challenge/abc", 403, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := New(Config{Domains: []string{"wolf.example.org", "loup.example.org"}, CacheDir: t.TempDir(), HTTPSPort: c.port})
			if err != nil {
				t.Fatal(err)
			}
			r := httptest.NewRequest(c.method, "http://"+c.host+c.uri, nil)
			w := httptest.NewRecorder()
			m.HTTPHandler().ServeHTTP(w, r)
			if w.Code != c.code || w.Header().Get("Location") != c.location {
				t.Errorf("%s %s%s: %d to %q, want %d to %q", c.method, c.host, c.uri, w.Code, w.Header().Get("Location"), c.code, c.location)
			}
		})
	}
	if m, _ := New(Config{Domains: []string{"wolf.example.org"}, CacheDir: t.TempDir(), HTTPSPort: 8443}); m.PublicURL() != "https://wolf.example.org:8443" {
		t.Errorf("PublicURL %q", m.PublicURL())
	}
}

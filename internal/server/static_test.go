package server

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/wolfden/wolfden/web"
)

func gz(t *testing.T, s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// get asks the handler for p with the given Accept-Encoding.
func get(h http.Handler, p, accept string, hdr ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest("GET", p, nil)
	if accept != "" {
		r.Header.Set("Accept-Encoding", accept)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// TestStaticServesPrecompressedFiles: a file the build stored as .br and .gz
// beside it is sent compressed to a client that takes the encoding, as it
// is to one that does not, with Vary: Accept-Encoding either way; hashed
// assets are cached for good, index.html revalidated (and its ETag
// answered with a 304).
func TestStaticServesPrecompressedFiles(t *testing.T) {
	js := strings.Repeat("console.log('wolfden');", 50)
	page := "<!doctype html><title>wolfden</title>" + strings.Repeat(" ", 200)
	files := fstest.MapFS{
		"index.html":         {Data: []byte(page)},
		"index.html.gz":      {Data: gz(t, page)},
		"assets/app-1.js":    {Data: []byte(js)},
		"assets/app-1.js.br": {Data: []byte("BROTLI")},
		"assets/app-1.js.gz": {Data: gz(t, js)},
		"assets/raw-2.css":   {Data: []byte("body{}")},
	}
	h := static(files)
	for _, tc := range []struct {
		path, accept, enc, body string
	}{
		{"/assets/app-1.js", "gzip, deflate, br, zstd", "br", "BROTLI"},
		{"/assets/app-1.js", "gzip, deflate", "gzip", string(gz(t, js))},
		{"/assets/app-1.js", "br;q=0, gzip;q=0.5", "gzip", string(gz(t, js))},
		{"/assets/app-1.js", "*", "br", "BROTLI"},
		{"/assets/app-1.js", "gzip;q=0, *", "br", "BROTLI"},
		{"/assets/app-1.js", "br;q=0, gzip;q=0", "", js},
		{"/assets/app-1.js", "", "", js},
		{"/assets/app-1.js", "identity", "", js},
		{"/", "gzip, br", "gzip", string(gz(t, page))},
		{"/room/abc", "gzip", "gzip", string(gz(t, page))},
		{"/new", "", "", page},
	} {
		w := get(h, tc.path, tc.accept)
		if w.Code != 200 || w.Header().Get("Content-Encoding") != tc.enc || w.Body.String() != tc.body {
			t.Errorf("%s (Accept-Encoding %q): %d, encoding %q, body %.40q", tc.path, tc.accept, w.Code, w.Header().Get("Content-Encoding"), w.Body.String())
		}
		if w.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s: Vary %q", tc.path, w.Header().Get("Vary"))
		}
		want := "text/javascript; charset=utf-8"
		if !strings.HasPrefix(tc.path, "/assets/") {
			want = "text/html; charset=utf-8"
		}
		if w.Header().Get("Content-Type") != want {
			t.Errorf("%s: Content-Type %q, want %q", tc.path, w.Header().Get("Content-Type"), want)
		}
		cache := w.Header().Get("Cache-Control")
		if strings.HasPrefix(tc.path, "/assets/") != (cache == "public, max-age=31536000, immutable") ||
			!strings.HasPrefix(tc.path, "/assets/") && cache != "no-cache" {
			t.Errorf("%s: Cache-Control %q", tc.path, cache)
		}
	}

	// a file with no compressed form: no Vary, no encoding
	if w := get(h, "/assets/raw-2.css", "gzip, br"); w.Code != 200 || w.Header().Get("Content-Encoding") != "" || w.Body.String() != "body{}" ||
		w.Header().Get("Content-Type") != "text/css; charset=utf-8" {
		t.Errorf("raw css: %d %q %q", w.Code, w.Header().Get("Content-Encoding"), w.Body.String())
	}
	// the compressed files are not pages of their own
	for _, p := range []string{"/assets/app-1.js.br", "/assets/app-1.js.gz", "/index.html.gz"} {
		if w := get(h, p, "gzip, br"); w.Code != 404 {
			t.Errorf("%s: %d, want 404", p, w.Code)
		}
	}
	// index.html revalidates with its ETag, one per encoding
	w := get(h, "/", "gzip")
	tag := w.Header().Get("ETag")
	if tag == "" || tag == get(h, "/", "").Header().Get("ETag") {
		t.Fatalf("ETag %q: the same for both encodings or none", tag)
	}
	if w := get(h, "/room/x", "gzip", "If-None-Match", tag); w.Code != http.StatusNotModified {
		t.Errorf("If-None-Match: %d, want 304", w.Code)
	}
	// a real client reads the gzip it is sent
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/assets/app-1.js") // Go's client asks for gzip and decodes it
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != js || !resp.Uncompressed {
		t.Errorf("the Go client read %d bytes (uncompressed by the transport: %v)", len(body), resp.Uncompressed)
	}
}

// TestStaticAllowsOnlyItsInlineScript: index.html's inline script (the
// catalogue's preload) runs by its hash; no other inline script would.
func TestStaticAllowsOnlyItsInlineScript(t *testing.T) {
	script := "(function(){document.title='x'})()"
	sum := sha256.Sum256([]byte(script))
	hash := "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	h := static(fstest.MapFS{"index.html": {Data: []byte("<head><script>" + script + "</script><script type=\"module\" src=\"/assets/a.js\"></script>")}})
	csp := get(h, "/", "").Header().Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self' "+hash+";") {
		t.Errorf("CSP %q lacks script-src 'self' %s", csp, hash)
	}
	if !strings.Contains(csp, "frame-ancestors 'none'") || !strings.HasPrefix(csp, "default-src 'self'; ") {
		t.Errorf("CSP %q", csp)
	}
	plain := get(static(fstest.MapFS{"index.html": {Data: []byte("<title>x</title>")}}), "/", "").Header().Get("Content-Security-Policy")
	if strings.Contains(plain, "script-src") {
		t.Errorf("a page without inline scripts gets %q", plain)
	}
	if strings.Contains(csp, "wasm") {
		t.Errorf("a page without the engine may compile WebAssembly: %q", csp)
	}
	// the engine on the device (web/build/engine.js): WebAssembly, no eval
	page := `<head><meta name="wolfden-engine" data-wasm="/assets/e.wasm"><script>` + script + `</script>`
	eng := get(static(fstest.MapFS{"index.html": {Data: []byte(page)}}), "/", "").Header().Get("Content-Security-Policy")
	if !strings.Contains(eng, "script-src 'self' "+hash+" 'wasm-unsafe-eval';") || strings.Contains(eng, "'unsafe-eval'") {
		t.Errorf("a page with the engine gets %q", eng)
	}
}

// text names the files the build precompresses (web/build/plugins.js).
var text = regexp.MustCompile(`\.(html|js|css|svg|json|txt)$`)

// TestStaticServesTheBuild: the committed build (web/dist) has every asset
// precompressed, and the page's preload script is allowed by the policy.
func TestStaticServesTheBuild(t *testing.T) {
	h := static(web.Dist())
	w := get(h, "/", "gzip, deflate, br")
	if w.Header().Get("Content-Encoding") != "br" {
		t.Fatalf("index.html is sent as %q", w.Header().Get("Content-Encoding"))
	}
	csp := w.Header().Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self' 'sha256-") {
		t.Errorf("the built page's inline script is not allowed: %q", csp)
	}
	for name, f := range loadFiles(web.Dist()) {
		// the build compresses its text (web/build/plugins.js); an image
		// (the installable app's PNG icons) is compressed already
		if !text.MatchString(name) {
			continue
		}
		if len(f.variants[0].data) > 1024 && len(f.variants) != 3 {
			t.Errorf("%s, %d bytes (%s), is not stored as .br and .gz", name, len(f.variants[0].data), f.ctype)
		}
	}
}

// TestStaticServesTheInstallableApp: the web app manifest goes out as
// application/manifest+json (a browser ignores it otherwise), the service
// worker as JavaScript, revalidated on every visit (a cached worker would
// keep an old shell), the icons by their types; none is served as the page.
func TestStaticServesTheInstallableApp(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 40)
	h := static(fstest.MapFS{
		"index.html":           {Data: []byte("<title>wolfden</title>")},
		"manifest.webmanifest": {Data: []byte(`{"name":"wolfden","start_url":"/"}`)},
		"sw.js":                {Data: []byte("self.addEventListener('fetch',()=>{})")},
		"icon-192.png":         {Data: []byte(png)},
		"icon.svg":             {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)},
	})
	for _, tc := range []struct{ path, ctype, cache, body string }{
		{"/manifest.webmanifest", "application/manifest+json", "no-cache", `{"name":"wolfden","start_url":"/"}`},
		{"/sw.js", "text/javascript; charset=utf-8", "no-cache, max-age=0", "self.addEventListener('fetch',()=>{})"},
		{"/icon-192.png", "image/png", "no-cache", png},
		{"/icon.svg", "image/svg+xml", "no-cache", `<svg xmlns="http://www.w3.org/2000/svg"/>`},
	} {
		w := get(h, tc.path, "gzip, br")
		if w.Code != 200 || w.Body.String() != tc.body {
			t.Errorf("%s: %d %.40q", tc.path, w.Code, w.Body.String())
		}
		if got := w.Header().Get("Content-Type"); got != tc.ctype {
			t.Errorf("%s: Content-Type %q, want %q", tc.path, got, tc.ctype)
		}
		if got := w.Header().Get("Cache-Control"); got != tc.cache {
			t.Errorf("%s: Cache-Control %q, want %q", tc.path, got, tc.cache)
		}
	}
	// a worker or manifest the build lacks is a 404, never the page
	for _, p := range []string{"/sw2.js", "/other.webmanifest"} {
		if w := get(h, p, ""); w.Code != 404 {
			t.Errorf("%s: %d, want 404", p, w.Code)
		}
	}
}

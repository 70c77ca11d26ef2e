package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// csp lets the client load only its own scripts, styles and connections
// (the WebSocket included); styles may be inline (Svelte sets some). The
// inline scripts of index.html (the one that preloads the language's
// catalogue) are allowed by their hash, and only they. Media may be data:
// URIs: the blank looping video that keeps a phone's screen on over plain
// HTTP (web/src/lib/wake.js).
const cspBase = "default-src 'self'; img-src 'self' data:; media-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; " +
	"frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"

// The encodings a build may hold beside a file (web/vite.config.js writes
// NAME.br and NAME.gz at build time), best first.
var encodings = []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// types are the content types of the installable app's files that the
// system's MIME table may not know: a browser takes a web app manifest only
// as application/manifest+json, and registers a service worker only from a
// JavaScript type.
var types = map[string]string{
	".webmanifest": "application/manifest+json",
	".js":          "text/javascript; charset=utf-8",
	".mjs":         "text/javascript; charset=utf-8",
}

// variant is one stored form of a file: as it is, or precompressed.
type variant struct {
	enc  string // "" for the file as it is
	data []byte
	etag string
}

// file is a servable file and its precompressed forms.
type file struct {
	ctype    string
	variants []variant // identity first, then in the order of encodings
}

// static serves the web client: its files, and index.html for any other
// page path (/room/ID …), which the client routes itself. A file is sent
// precompressed when the build holds it so and the request's
// Accept-Encoding takes it (Vary: Accept-Encoding); content-hashed assets
// are cached for a year (immutable), index.html is revalidated every time
// (no-cache, with an ETag).
func static(files fs.FS) http.Handler {
	table := loadFiles(files)
	index := table["index.html"]
	if index == nil {
		index = &file{ctype: "text/html; charset=utf-8", variants: []variant{{etag: `"empty"`}}}
	}
	csp := cspBase
	hashes := inlineScriptHashes(index.variants[0].data)
	// A page that names the engine on the device (web/build/engine.js)
	// compiles it: WebAssembly, and no other eval.
	if bytes.Contains(index.variants[0].data, []byte(`<meta name="wolfden-engine"`)) {
		hashes += " 'wasm-unsafe-eval'"
	}
	if hashes != "" {
		csp = strings.Replace(csp, "default-src 'self';", "default-src 'self'; script-src 'self'"+hashes+";", 1)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Only wolfden's own files run here, and no other site may frame it.
		w.Header().Set("Content-Security-Policy", csp)
		w.Header().Set("X-Frame-Options", "DENY")
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" && name != "index.html" {
			if f := table[name]; f != nil {
				if strings.HasPrefix(name, "assets/") { // names carry a content hash
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				} else if name == "sw.js" {
					// A service worker kept by a cache would keep the old shell:
					// the browser checks it on every visit.
					w.Header().Set("Cache-Control", "no-cache, max-age=0")
				} else {
					w.Header().Set("Cache-Control", "no-cache")
				}
				serve(w, r, name, f)
				return
			}
			if strings.HasPrefix(name, "assets/") || strings.HasPrefix(name, "api/") || path.Ext(name) != "" {
				http.NotFound(w, r)
				return
			}
		}
		w.Header().Set("Cache-Control", "no-cache")
		serve(w, r, "index.html", index)
	})
}

// serve sends the best variant of f that the request accepts.
func serve(w http.ResponseWriter, r *http.Request, name string, f *file) {
	v := f.variants[0]
	if len(f.variants) > 1 {
		w.Header().Add("Vary", "Accept-Encoding")
		accepted := acceptedEncodings(r.Header.Get("Accept-Encoding"))
		for _, x := range f.variants[1:] {
			if accepted[x.enc] {
				v = x
				break
			}
		}
	}
	if v.enc != "" {
		w.Header().Set("Content-Encoding", v.enc)
	}
	w.Header().Set("Content-Type", f.ctype)
	w.Header().Set("ETag", v.etag)
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(v.data))
}

// loadFiles reads every file of the build once, with its precompressed
// forms beside it; a NAME.br or NAME.gz is not served under its own name.
func loadFiles(files fs.FS) map[string]*file {
	table := map[string]*file{}
	compressed := map[string]bool{}
	_ = fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		for _, e := range encodings {
			if strings.HasSuffix(p, e.ext) {
				if _, err := fs.Stat(files, strings.TrimSuffix(p, e.ext)); err == nil {
					compressed[p] = true
				}
			}
		}
		return nil
	})
	_ = fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || compressed[p] {
			return nil
		}
		data, err := fs.ReadFile(files, p)
		if err != nil {
			return nil
		}
		ctype := types[path.Ext(p)]
		if ctype == "" {
			ctype = mime.TypeByExtension(path.Ext(p))
		}
		if ctype == "" {
			ctype = http.DetectContentType(data)
		}
		f := &file{ctype: ctype, variants: []variant{{data: data, etag: etag(data, "")}}}
		for _, e := range encodings {
			if z, err := fs.ReadFile(files, p+e.ext); err == nil && len(z) < len(data) {
				f.variants = append(f.variants, variant{enc: e.token, data: z, etag: etag(data, e.token)})
			}
		}
		table[p] = f
		return nil
	})
	return table
}

func etag(data []byte, enc string) string {
	sum := sha256.Sum256(data)
	tag := hex.EncodeToString(sum[:8])
	if enc != "" {
		tag += "-" + enc
	}
	return `"` + tag + `"`
}

// acceptedEncodings reads an Accept-Encoding header (RFC 9110 12.5.3):
// the codings named with a q above 0; "*" names every coding not named.
func acceptedEncodings(h string) map[string]bool {
	named := map[string]bool{}
	ok := map[string]bool{}
	star := false
	for _, part := range strings.Split(h, ",") {
		fields := strings.Split(part, ";")
		coding := strings.ToLower(strings.TrimSpace(fields[0]))
		if coding == "" {
			continue
		}
		q := 1.0
		for _, p := range fields[1:] {
			p = strings.TrimSpace(p)
			if len(p) > 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=' {
				if v, err := strconv.ParseFloat(p[2:], 64); err == nil {
					q = v
				}
			}
		}
		if coding == "*" {
			star = q > 0
			continue
		}
		named[coding] = true
		ok[coding] = q > 0
	}
	if star {
		for _, e := range encodings {
			if !named[e.token] {
				ok[e.token] = true
			}
		}
	}
	return ok
}

var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

// inlineScriptHashes is the CSP source list (" 'sha256-…'" each) of the
// inline scripts of a page.
func inlineScriptHashes(page []byte) string {
	var b strings.Builder
	for _, m := range inlineScript.FindAllSubmatch(page, -1) {
		sum := sha256.Sum256(m[1])
		b.WriteString(" 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'")
	}
	return b.String()
}

// Package web holds the built web client (web/dist, made by `npm run build`
// and committed), embedded so the server needs no Node.js to serve it.
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist is the built client: index.html and its assets.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the directory is embedded above
	}
	return sub
}

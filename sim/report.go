package sim

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"

	"github.com/wolfden/wolfden/rules"
)

// WriteHTML writes a self-contained HTML page of the result: the boards side
// by side, a chart of the win rates with their intervals, a histogram of the
// games' lengths and the tables. It loads nothing from elsewhere (no
// scripts, style sheets or fonts), so it opens offline.
func (r *Result) WriteHTML(w io.Writer) error {
	return reportTmpl.Execute(w, newReport(r))
}

// palette colours the boards, in order.
var palette = []string{"#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac"}

func colour(i int) string { return palette[i%len(palette)] }

type report struct {
	R         *Result
	Boards    []reportBoard
	WinChart  template.HTML
	DaysChart template.HTML
	Wins      []row
	Length    []row
	Deaths    []row
	Survival  []row
	Rules     []row
}

type reportBoard struct {
	*BoardResult
	Colour string
}

// row is a line of a comparison table: a label and one cell per board.
type row struct {
	Label, Note string
	Cells       []cell
}

type cell struct {
	Main, Sub string // Sub: a smaller second line (an interval, a count)
	None      bool
}

func newReport(r *Result) *report {
	rep := &report{R: r}
	for i := range r.Boards {
		rep.Boards = append(rep.Boards, reportBoard{&r.Boards[i], colour(i)})
	}
	nb := len(r.Boards)

	// Wins: the camps that won on some board, in camp order.
	for c := rules.Village; c < rules.NumCamps; c++ {
		name := c.String()
		rw := row{Label: name, Cells: make([]cell, nb)}
		found := false
		for i, b := range r.Boards {
			rw.Cells[i] = cell{None: true}
			for _, w := range b.Wins {
				if w.Camp == name {
					rw.Cells[i] = cell{Main: pct(w.Rate), Sub: fmt.Sprintf("%s – %s (%d games)", pct(w.Low), pct(w.High), w.Games)}
					found = true
				}
			}
		}
		if found {
			rep.Wins = append(rep.Wins, rw)
		}
	}

	mean := row{Label: "mean", Note: "days", Cells: make([]cell, nb)}
	span := row{Label: "shortest – longest", Note: "days", Cells: make([]cell, nb)}
	for i, b := range r.Boards {
		mean.Cells[i] = cell{Main: fmt.Sprintf("%.2f", b.Length.Mean)}
		span.Cells[i] = cell{Main: fmt.Sprintf("%d – %d", b.Length.Min, b.Length.Max)}
	}
	rep.Length = []row{mean, span}

	for c := 0; c < maxCauses; c++ {
		name := rules.Cause(c).String()
		rw := row{Label: name, Cells: make([]cell, nb)}
		found := false
		for i, b := range r.Boards {
			rw.Cells[i] = cell{None: true}
			for _, d := range b.Deaths {
				if d.Cause == name {
					rw.Cells[i] = cell{Main: fmt.Sprintf("%.3f", d.PerGame), Sub: pct(d.Share) + " of deaths"}
					found = true
				}
			}
		}
		if found {
			rep.Deaths = append(rep.Deaths, rw)
		}
	}

	var roles []string
	seen := map[string]bool{}
	chinese := map[string]string{}
	for _, b := range r.Boards {
		for _, s := range b.Survival {
			if !seen[s.Role] {
				seen[s.Role] = true
				roles = append(roles, s.Role)
				chinese[s.Role] = s.Chinese
			}
		}
	}
	for _, role := range roles {
		rw := row{Label: role, Note: chinese[role], Cells: make([]cell, nb)}
		for i, b := range r.Boards {
			rw.Cells[i] = cell{None: true}
			for _, s := range b.Survival {
				if s.Role == role {
					rw.Cells[i] = cell{Main: pct(s.Rate), Sub: fmt.Sprintf("%d of %d alive", s.Alive, s.Players)}
				}
			}
		}
		rep.Survival = append(rep.Survival, rw)
	}

	for _, sr := range specialRules {
		rw := row{Label: sr.id, Note: sr.label, Cells: make([]cell, nb)}
		found := false
		for i, b := range r.Boards {
			rw.Cells[i] = cell{None: true}
			for _, f := range b.Rules {
				if f.Rule == sr.id {
					rw.Cells[i] = cell{Main: pct(f.Rate), Sub: fmt.Sprintf("%d games", f.Games)}
					found = true
				}
			}
		}
		if found {
			rep.Rules = append(rep.Rules, rw)
		}
	}

	rep.WinChart = winChart(r, rep.Wins)
	rep.DaysChart = daysChart(r)
	return rep
}

// svg collects an SVG drawing; every text put in it is escaped.
type svg struct{ b strings.Builder }

func (s *svg) f(format string, args ...any) { fmt.Fprintf(&s.b, format, args...) }

func (s *svg) text(x, y float64, anchor, class, t string) {
	s.f(`<text x="%.1f" y="%.1f" text-anchor="%s" class="%s">%s</text>`, x, y, anchor, class, template.HTMLEscapeString(t))
}

func (s *svg) html() template.HTML { return template.HTML(s.b.String()) } // #nosec: built from escaped parts

// yAxis draws horizontal grid lines and their labels from 0 to top (a
// share), every step.
func (s *svg) yAxis(left, right, top, bottom, maxShare, step float64) {
	for v := 0.0; v <= maxShare+1e-9; v += step {
		y := bottom - (bottom-top)*v/maxShare
		s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="grid"/>`, left, y, right, y)
		s.text(left-6, y+4, "end", "tick", fmt.Sprintf("%.0f%%", 100*v))
	}
}

// winChart draws the win rate of each camp, one bar per board side by side,
// with the Wilson interval as an error bar.
func winChart(r *Result, camps []row) template.HTML {
	nb := len(r.Boards)
	bw := math.Max(8, math.Min(42, 220/float64(nb)))
	group := bw*float64(nb) + 36
	left, top, plotH := 52.0, 20.0, 220.0
	width := left + group*float64(max(len(camps), 1)) + 20
	height := top + plotH + 60
	bottom := top + plotH
	var s svg
	s.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img" aria-label="win rates">`, width, height, width, height)
	s.yAxis(left, width-10, top, bottom, 1, 0.2)
	for gi, c := range camps {
		x0 := left + 18 + group*float64(gi)
		for bi, b := range r.Boards {
			var w CampWins
			for _, cw := range b.Wins {
				if cw.Camp == c.Label {
					w = cw
				}
			}
			x := x0 + bw*float64(bi)
			y := bottom - plotH*w.Rate
			s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`,
				x+1, y, bw-2, bottom-y, colour(bi),
				template.HTMLEscapeString(fmt.Sprintf("%s, %s: %s (95%%: %s – %s)", b.Name, c.Label, pct(w.Rate), pct(w.Low), pct(w.High))))
			if w.Games > 0 {
				cx, yl, yh := x+bw/2, bottom-plotH*w.Low, bottom-plotH*w.High
				s.f(`<path d="M%.1f %.1fV%.1fM%.1f %.1fh%.1fM%.1f %.1fh%.1f" class="err"/>`,
					cx, yl, yh, cx-bw/4, yl, bw/2, cx-bw/4, yh, bw/2)
				if bw >= 26 {
					s.text(cx, yh-4, "middle", "val", fmt.Sprintf("%.1f%%", 100*w.Rate))
				}
			}
		}
		s.text(x0+bw*float64(nb)/2, bottom+18, "middle", "lab", c.Label)
	}
	s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="axis"/>`, left, bottom, width-10, bottom)
	legend(&s, r, left, bottom+40)
	s.f(`</svg>`)
	return s.html()
}

func legend(s *svg, r *Result, x, y float64) {
	for i, b := range r.Boards {
		s.f(`<rect x="%.1f" y="%.1f" width="12" height="12" fill="%s"/>`, x, y-10, colour(i))
		s.text(x+16, y, "start", "lab", b.Name)
		x += 16 + 7*float64(displayWidth(b.Name)) + 20
	}
}

// daysChart is the histogram of the games' lengths: the share of games that
// lasted each number of days, one bar per board side by side.
func daysChart(r *Result) template.HTML {
	lo, hi, top := maxDays, 0, 0.0
	for _, b := range r.Boards {
		for _, h := range b.Length.Histogram {
			lo, hi = min(lo, h.Days), max(hi, h.Days)
			top = math.Max(top, h.Share)
		}
	}
	if hi < lo {
		lo, hi = 0, 0
	}
	step := 0.05
	switch {
	case top > 0.5:
		step = 0.2
	case top > 0.2:
		step = 0.1
	case top < 0.05:
		step = 0.01
	}
	maxShare := math.Max(step, math.Ceil(top/step-1e-9)*step)
	nb, nd := len(r.Boards), hi-lo+1
	bw := math.Max(3, math.Min(24, 640/float64(nd*nb)))
	group := bw*float64(nb) + 10
	left, topY, plotH := 52.0, 20.0, 200.0
	width := left + group*float64(nd) + 20
	bottom := topY + plotH
	height := bottom + 76
	var s svg
	s.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img" aria-label="length of games">`, width, height, width, height)
	s.yAxis(left, width-10, topY, bottom, maxShare, step)
	for d := lo; d <= hi; d++ {
		x0 := left + 5 + group*float64(d-lo)
		for bi, b := range r.Boards {
			var h LengthBin
			for _, x := range b.Length.Histogram {
				if x.Days == d {
					h = x
				}
			}
			if h.Games == 0 {
				continue
			}
			y := bottom - plotH*h.Share/maxShare
			s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`,
				x0+bw*float64(bi), y, math.Max(1, bw-1), bottom-y, colour(bi),
				template.HTMLEscapeString(fmt.Sprintf("%s: %d days, %d games (%s)", b.Name, d, h.Games, pct(h.Share))))
		}
		label := fmt.Sprint(d)
		if d == maxDays {
			label += "+"
		}
		if nd <= 30 || (d-lo)%5 == 0 {
			s.text(x0+bw*float64(nb)/2, bottom+16, "middle", "tick", label)
		}
	}
	s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="axis"/>`, left, bottom, width-10, bottom)
	s.text(left+(width-left)/2, bottom+34, "middle", "lab", "length of the game (days)")
	legend(&s, r, left, bottom+60)
	s.f(`</svg>`)
	return s.html()
}

type tableArgs struct {
	Rep  *report
	Rows []row
	Head string
}

var reportTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"args": func(rep *report, rows []row, head string) tableArgs { return tableArgs{rep, rows, head} },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>wolfden sim: {{range $i, $b := .Boards}}{{if $i}} vs {{end}}{{$b.Name}}{{end}}</title>
<style>
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222; margin: 2em auto; max-width: 1100px; padding: 0 1em; }
h1 { font-size: 1.5em; margin-bottom: .2em; }
h2 { font-size: 1.15em; margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: .2em; }
p.meta { color: #555; margin-top: 0; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { padding: .3em .8em; border-bottom: 1px solid #eee; text-align: right; vertical-align: top; }
th { background: #f6f6f6; }
th.l, td.l { text-align: left; }
td small, th small { display: block; color: #777; font-weight: normal; font-size: .8em; }
.swatch { display: inline-block; width: .8em; height: .8em; margin-right: .4em; vertical-align: baseline; }
.none { color: #bbb; }
.chart { overflow-x: auto; }
svg text { font: 11px system-ui, sans-serif; fill: #333; }
svg .tick { fill: #666; }
svg .val { font-size: 10px; fill: #222; }
svg .grid { stroke: #e6e6e6; }
svg .axis { stroke: #888; }
svg .err { stroke: #222; stroke-width: 1.2; fill: none; }
</style>
</head>
<body>
<h1>wolfden balance simulation</h1>
<p class="meta">{{.R.Games}} games per board · seed {{.R.Seed}} · bots {{.R.Levels}} · 95% intervals are Wilson score intervals</p>

<h2>Boards</h2>
<table>
<tr><th class="l">board</th><th class="l">source</th><th>players</th><th class="l">cards</th><th>games</th></tr>
{{range .Boards}}<tr><td class="l"><span class="swatch" style="background:{{.Colour}}"></span>{{.Title}}</td><td class="l">{{.Source}}</td><td>{{.Players}}</td><td class="l">{{.Cards}}</td><td>{{.Games}}</td></tr>
{{end}}</table>

<h2>Win rates</h2>
<div class="chart">{{.WinChart}}</div>
{{template "table" (args . .Wins "camp")}}

<h2>Length of the games</h2>
<p>A day is a night and its day: a game that ends in its third night lasts 3 days.</p>
<div class="chart">{{.DaysChart}}</div>
{{template "table" (args . .Length "length")}}

<h2>Deaths by cause</h2>
<p>Deaths per game, and the cause's share of all deaths.</p>
{{template "table" (args . .Deaths "cause")}}

<h2>Survival by role</h2>
<p>The share of the players holding each card at the end of the game who are alive (a thief who took a card counts as that card).</p>
{{template "table" (args . .Survival "role")}}

<h2>Special rules</h2>
<p>The share of games in which each rule came into play at least once.</p>
{{template "table" (args . .Rules "rule")}}
</body>
</html>
{{define "table"}}<table>
<tr><th class="l">{{.Head}}</th>{{range .Rep.Boards}}<th><span class="swatch" style="background:{{.Colour}}"></span>{{.Name}}</th>{{end}}</tr>
{{range .Rows}}<tr><td class="l">{{.Label}}{{if .Note}}<small>{{.Note}}</small>{{end}}</td>{{range .Cells}}{{if .None}}<td class="none">—</td>{{else}}<td>{{.Main}}{{if .Sub}}<small>{{.Sub}}</small>{{end}}</td>{{end}}{{end}}</tr>
{{end}}</table>{{end}}`))

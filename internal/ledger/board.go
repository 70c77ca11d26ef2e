package ledger

import "strings"

// Custom is the board and the family of a game on a board file.
const Custom = "custom"

// Family is the board family a preset belongs to: the statistics of a
// std-12 variant mean little for std-9, and nothing for an AIWolf game.
// The std-12 variants (std-12-wwk, std-12-fox, …) are std-12; the AIWolf
// regulations (aiwolf-5, aiwolf-13) are aiwolf; any other preset is its
// own family (std-9, classic, new-moon, forum); a board file is custom.
func Family(preset string) string {
	switch {
	case preset == "":
		return Custom
	case strings.HasPrefix(preset, "std-12"):
		return "std-12"
	case strings.HasPrefix(preset, "aiwolf-"):
		return "aiwolf"
	}
	return preset
}

// The village rates, by simulation (sim/balance_presets.json), between
// which a board is rated.
const (
	RatedLow  = 0.40
	RatedHigh = 0.60
)

// Rated tells whether a board with this simulated village rate is rated; a
// board without a figure (known false: a board file, a preset at a size or
// with options the table does not hold) is not.
func Rated(villageRate float64, known bool) bool {
	return known && villageRate >= RatedLow && villageRate <= RatedHigh
}

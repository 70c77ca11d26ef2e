package server

import (
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/wolfden/wolfden/internal/ledger"
	"github.com/wolfden/wolfden/internal/rating"
	"github.com/wolfden/wolfden/internal/store"
)

// Profiles, the leaderboard and the seasons (docs/accounts.md): what the
// ledger keeps, as players read it. A private profile is found by its
// owner only; to anyone else it is the same 404 as a name nobody has.

var (
	errNoPlayer = fail(http.StatusNotFound, "no_player", "no such player")
	errNoLedger = fail(http.StatusNotFound, "no_ledger", "this server keeps no accounts")
	errSide     = fail(http.StatusBadRequest, "bad_side", "side must be village or wolf")
)

// gameEntry is one game of a profile's history.
type gameEntry struct {
	Room    string      `json:"room"`
	Board   string      `json:"board"`
	Family  string      `json:"family"`
	Role    string      `json:"role"`
	Camp    string      `json:"camp"`
	Outcome string      `json:"outcome"`
	Counted bool        `json:"counted"`
	Reason  string      `json:"reason,omitempty"`
	Rated   bool        `json:"rated"`
	Side    string      `json:"side"`
	Season  string      `json:"season"`
	At      time.Time   `json:"at"`
	Replay  string      `json:"replay"` // the replay's API path
	Before  *ratingInfo `json:"before,omitempty"`
	After   *ratingInfo `json:"after,omitempty"`
}

// sideRating is a rating as a profile or the leaderboard shows it.
type sideRating struct {
	Season string `json:"season"`
	Side   string `json:"side"`
	Games  int    `json:"games"`
	ratingInfo
}

type profile struct {
	Name    string               `json:"name"`
	Public  bool                 `json:"public"`
	Own     bool                 `json:"own"` // the viewer's own profile
	Since   time.Time            `json:"since"`
	Games   []gameEntry          `json:"games"`
	Stats   []ledger.FamilyStats `json:"stats"`
	Ratings []sideRating         `json:"ratings"`
}

// ledgerStores are the store's ledger and accounts, or an error when it
// keeps no ledger.
func (s *Server) ledgerStores() (store.Ledger, store.Accounts, error) {
	lg, ok := s.st.(store.Ledger)
	if !ok {
		return nil, nil, errNoLedger
	}
	return lg, s.st, nil
}

var errSignIn = fail(http.StatusForbidden, "not_yours", "sign in to the account that held this seat to see its result")

// ownAccount tells whether the request is signed in to account id.
func (s *Server) ownAccount(r *http.Request, id string) bool {
	a, ok := s.signedIn(r)
	return ok && a.ID == id
}

func (s *Server) player(w http.ResponseWriter, r *http.Request) {
	lg, ac, err := s.ledgerStores()
	if err != nil {
		writeErr(w, err)
		return
	}
	a, err := ac.AccountByName(r.Context(), r.PathValue("name"))
	if errors.Is(err, store.ErrNotFound) {
		writeErr(w, errNoPlayer)
		return
	}
	if err != nil {
		writeErr(w, fail(http.StatusInternalServerError, "store", "the profile could not be read"))
		return
	}
	me, in := s.signedIn(r)
	own := in && me.ID == a.ID
	if !a.Public && !own {
		writeErr(w, errNoPlayer)
		return
	}
	results, err := lg.Results(r.Context(), a.ID)
	if err != nil {
		writeErr(w, fail(http.StatusInternalServerError, "store", "the profile could not be read"))
		return
	}
	ratings, err := lg.AccountRatings(r.Context(), a.ID)
	if err != nil {
		writeErr(w, fail(http.StatusInternalServerError, "store", "the profile could not be read"))
		return
	}
	p := profile{Name: a.Name, Public: a.Public, Own: own, Since: a.Created, Games: []gameEntry{},
		Stats: ledger.Stats(results), Ratings: []sideRating{}}
	for _, res := range results {
		g := gameEntry{Room: res.Room, Board: res.Board, Family: res.Family, Role: res.Role, Camp: res.Camp,
			Outcome: res.Outcome, Counted: res.Counted, Reason: res.Reason, Rated: res.Rated, Side: res.Side,
			Season: res.Season, At: res.At, Replay: "/api/rooms/" + res.Room + "/replay"}
		if res.Rated {
			b, af := ratingOf(res.Before), ratingOf(res.After)
			g.Before, g.After = &b, &af
		}
		p.Games = append(p.Games, g)
	}
	for _, rt := range ratings {
		p.Ratings = append(p.Ratings, sideRating{Season: rt.Season, Side: rt.Side, Games: rt.Games, ratingInfo: ratingOf(rt.RatingValue)})
	}
	writeJSON(w, http.StatusOK, p)
}

// LeaderboardSize is how many players a leaderboard lists.
const LeaderboardSize = 100

type boardEntry struct {
	Rank int    `json:"rank"`
	Name string `json:"name"`
	sideRating
}

// leaderboard lists a season's best players on one side, by the ordinal
// mu − 3·sigma; private profiles are left out.
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) {
	lg, ac, err := s.ledgerStores()
	if err != nil {
		writeErr(w, err)
		return
	}
	q := r.URL.Query()
	season, side := q.Get("season"), q.Get("side")
	if season == "" {
		season = s.opts.Seasons.Of(time.Now())
	}
	if side == "" {
		side = ledger.Village
	}
	if side != ledger.Village && side != ledger.Wolf {
		writeErr(w, errSide)
		return
	}
	out := []boardEntry{}
	const page = 4 * LeaderboardSize
	for offset := 0; len(out) < LeaderboardSize; offset += page {
		rs, err := lg.Leaderboard(r.Context(), season, side, offset, page)
		if err != nil {
			writeErr(w, fail(http.StatusInternalServerError, "store", "the leaderboard could not be read"))
			return
		}
		for _, rt := range rs {
			a, err := ac.AccountByID(r.Context(), rt.AccountID)
			if err != nil || !a.Public || len(out) == LeaderboardSize {
				continue // deleted, private
			}
			out = append(out, boardEntry{Rank: len(out) + 1, Name: a.Name,
				sideRating: sideRating{Season: rt.Season, Side: rt.Side, Games: rt.Games, ratingInfo: ratingOf(rt.RatingValue)}})
		}
		if len(rs) < page {
			break
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"season": season, "side": side, "players": out,
		"default": ratingOf(store.RatingValue(rating.New()))})
}

// seasons lists the seasons with results, the current one first.
func (s *Server) seasons(w http.ResponseWriter, r *http.Request) {
	lg, _, err := s.ledgerStores()
	if err != nil {
		writeErr(w, err)
		return
	}
	list, err := lg.Seasons(r.Context())
	if err != nil {
		writeErr(w, fail(http.StatusInternalServerError, "store", "the seasons could not be read"))
		return
	}
	cur := s.opts.Seasons.Of(time.Now())
	if !slices.Contains(list, cur) {
		list = append([]string{cur}, list...)
	}
	writeJSON(w, http.StatusOK, map[string]any{"current": cur, "seasons": list, "length": string(s.seasonLength())})
}

func (s *Server) seasonLength() ledger.Seasons {
	if s.opts.Seasons == "" {
		return ledger.Quarter
	}
	return s.opts.Seasons
}

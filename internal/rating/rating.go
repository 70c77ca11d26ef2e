// Package rating is the team rating system of wolfden: one skill estimate
// (a mean mu and an uncertainty sigma) per player, updated after each game
// from the order in which the teams finished. Teams may be of any size, so
// a 4-wolf team can be rated against an 8-seat village, and a third party
// (a lone 吹笛者, the lovers) against both.
//
// The model is the Plackett–Luce update of Weng and Lin, "A Bayesian
// Approximation Method for Online Ranking", Journal of Machine Learning
// Research 12 (2011) 267–300, Algorithm 4, as OpenSkill implements it
// (openskill.js's rate with the plackettLuce model and its default options;
// openskill.py's PlackettLuce is the same). Its constants:
//
//	mu0   = 25          the prior mean of a new player (New)
//	sigma0 = 25/3       the prior uncertainty (mu0/z with z = 3)
//	beta  = sigma0/2    the performance noise of one game (25/6)
//	kappa = 0.0001      the least factor by which a sigma² may shrink in one game
//	tau   = mu0/300     the additive dynamics: before each game every sigma
//	                    becomes sqrt(sigma² + tau²), so that a player's skill
//	                    may drift and sigma never settles at zero
//	gamma = sigma_i/c   the damping of team i's variance update, with
//	                    sigma_i² the sum of its members' sigma² and
//	                    c² = Σ over teams (sigma_t² + beta²)
//
// A team's skill is the sum of its members' means, its variance the sum of
// their variances; a member's share of his team's update is his variance
// over the team's. OpenSkill's options that change the model (balance,
// weights, scores with margins, limitSigma) are off, as in its defaults.
package rating

import "math"

// The model's constants (see the package doc).
const (
	Mu0    = 25.0
	Sigma0 = Mu0 / 3
	Beta   = Sigma0 / 2
	Kappa  = 0.0001
	Tau    = Mu0 / 300
)

// Rating is one player's skill estimate: a normal distribution of mean Mu
// and standard deviation Sigma.
type Rating struct{ Mu, Sigma float64 }

// New is the prior of a player who has played no game.
func New() Rating { return Rating{Mu: Mu0, Sigma: Sigma0} }

// Ordinal is mu − 3·sigma: a skill the player has with about 99.9%
// confidence, the number a leaderboard sorts by, so that one lucky game
// does not put a newcomer on top.
func (r Rating) Ordinal() float64 { return r.Mu - 3*r.Sigma }

// Interval is the 95% interval of the skill: mu ± 1.96·sigma.
func (r Rating) Interval() (lo, hi float64) {
	return r.Mu - 1.96*r.Sigma, r.Mu + 1.96*r.Sigma
}

// Rate updates teams of players after one game; rank[i] is team i's place
// (0 = best, equal = tie). The inputs are not modified. It panics if rank
// does not have one place per team or a team is empty, which is a caller's
// bug, never a game's outcome. A game of a single team changes nothing
// but the drift tau adds.
func Rate(teams [][]Rating, rank []int) [][]Rating {
	if len(rank) != len(teams) {
		panic("rating: Rate needs one rank per team")
	}
	drifted := make([][]Rating, len(teams))
	for i, team := range teams {
		if len(team) == 0 {
			panic("rating: Rate given an empty team")
		}
		drifted[i] = make([]Rating, len(team))
		for j, p := range team {
			drifted[i][j] = Rating{Mu: p.Mu, Sigma: math.Sqrt(p.Sigma*p.Sigma + Tau*Tau)}
		}
	}
	return plackettLuce(drifted, rank)
}

// plackettLuce is the update itself (OpenSkill's model function, without
// the drift Rate adds before it).
func plackettLuce(teams [][]Rating, rank []int) [][]Rating {
	n := len(teams)
	mu := make([]float64, n)     // team means
	sigma2 := make([]float64, n) // team variances
	c2 := 0.0
	for i, team := range teams {
		for _, p := range team {
			mu[i] += p.Mu
			sigma2[i] += p.Sigma * p.Sigma
		}
		c2 += sigma2[i] + Beta*Beta
	}
	c := math.Sqrt(c2)

	// The shift by the largest mean keeps exp from overflowing; it cancels
	// in every ratio below.
	top := mu[0]
	for _, m := range mu {
		top = max(top, m)
	}
	e := make([]float64, n)
	for i := range e {
		e[i] = math.Exp((mu[i] - top) / c)
	}
	// sumQ[q]: the teams placed at q's place or worse; a[q]: the teams tied
	// with q.
	sumQ := make([]float64, n)
	a := make([]float64, n)
	for q := range n {
		for i := range n {
			if rank[i] >= rank[q] {
				sumQ[q] += e[i]
			}
			if rank[i] == rank[q] {
				a[q]++
			}
		}
	}

	out := make([][]Rating, n)
	for i, team := range teams {
		var omega, delta float64
		for q := range n {
			if rank[q] > rank[i] {
				continue
			}
			p := e[i] / sumQ[q]
			delta += p * (1 - p) / a[q]
			if q == i {
				omega += (1 - p) / a[q]
			} else {
				omega -= p / a[q]
			}
		}
		gamma := math.Sqrt(sigma2[i]) / c
		omega *= sigma2[i] / c
		delta *= gamma * sigma2[i] / c2
		out[i] = make([]Rating, len(team))
		for j, p := range team {
			share := p.Sigma * p.Sigma / sigma2[i]
			out[i][j] = Rating{
				Mu:    p.Mu + share*omega,
				Sigma: p.Sigma * math.Sqrt(max(1-share*delta, Kappa)),
			}
		}
	}
	return out
}

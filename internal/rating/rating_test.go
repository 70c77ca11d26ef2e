package rating

import (
	"math"
	"testing"
)

// close within 1e-9: the reference numbers are JavaScript doubles, and the
// sums here run in another order.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

func checkTeams(t *testing.T, got, want [][]Rating) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d teams, want %d", len(got), len(want))
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("team %d: got %d players, want %d", i, len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			g, w := got[i][j], want[i][j]
			if !near(g.Mu, w.Mu) || !near(g.Sigma, w.Sigma) {
				t.Errorf("team %d player %d: got mu %.15g sigma %.15g, want mu %.15g sigma %.15g", i, j, g.Mu, g.Sigma, w.Mu, w.Sigma)
			}
		}
	}
}

// r is a rating in the reference suites' notation.
func r(mu, sigma float64) Rating { return Rating{mu, sigma} }

// The expected numbers are openskill.js's published test cases (github.com/
// philihp/openskill.js, src/__tests__/rate.test.ts, the cases named in
// each row): its rate() with the default Plackett–Luce model and default
// options, tau = 25/300 included. Its ranks start at 1; ours at 0, which
// the update does not see (it compares ranks only).
func TestRateMatchesOpenSkillPublishedCases(t *testing.T) {
	a1, b1, c1, d1 := r(29.182, 4.782), r(27.174, 4.922), r(16.672, 6.217), New()
	w1, x1, y1, z1 := r(15, 25.0/3), r(20, 25.0/3), r(25, 25.0/3), r(30, 25.0/3)
	cases := []struct {
		name  string
		teams [][]Rating
		rank  []int
		want  [][]Rating
	}{
		{"rate accepts and runs a placket-luce model by default",
			[][]Rating{{a1}, {b1}, {c1}, {d1}}, []int{0, 1, 2, 3},
			[][]Rating{{r(30.210227447000438, 4.765617924939384)}, {r(27.644725221915632, 4.883479590134575)},
				{r(17.4036218889969, 6.101259408259549)}, {r(19.21460876538932, 7.854669920480409)}}},
		{"rate accepts and runs a placket-luce model by default for teams",
			[][]Rating{{a1, b1}, {c1, d1}}, []int{0, 1},
			[][]Rating{{r(29.607340941337068, 4.755311788972862), r(27.624602782532037, 4.892807828777459)},
				{r(15.953170429143093, 6.125902065139878), r(23.70858117648013, 8.111707446126035)}}},
		{"reverses rank",
			[][]Rating{{New()}, {New()}}, []int{1, 0},
			[][]Rating{{r(22.364610506859503, 8.06590141354368)}, {r(27.635389493140497, 8.06590141354368)}}},
		{"accepts a misordered rank ordering",
			[][]Rating{{d1}, {d1}, {d1}, {d1}}, []int{1, 0, 3, 2},
			[][]Rating{{r(26.55291815138952, 8.17961798837266)}, {r(27.795252672501135, 8.263571791259416)},
				{r(20.962412806387245, 8.084127880168786)}, {r(24.689416369722096, 8.084127880168786)}}},
		{"accepts a rate ordering",
			[][]Rating{{w1}, {x1}, {y1}, {z1}}, []int{0, 2, 3, 1},
			[][]Rating{{r(18.131120980297805, 8.283536573151807)}, {r(20.405169039419135, 8.107860440531121)},
				{r(20.65583040714804, 8.082574596348321)}, {r(30.80787957313502, 8.155100416275928)}}},
		{"accepts teams in rating order",
			[][]Rating{{a1, d1}, {b1, d1}, {c1, d1}}, []int{2, 0, 1},
			[][]Rating{{r(27.857622571955794, 4.744504197327133), r(20.97892943330433, 8.129851804000902)},
				{r(27.990904891666695, 4.901705733959291), r(27.341233554297506, 8.2314516336455)},
				{r(17.607030910762578, 6.141282638892306), r(26.67983701239816, 8.149157818911323)}}},
		{"allows ties",
			[][]Rating{{r(10, 8)}, {r(5, 10)}, {r(0, 12)}}, []int{0, 1, 1},
			[][]Rating{{r(11.942996666741225, 7.926888197620324)}, {r(2.9381178546315034, 9.653804487570165)},
				{r(-1.4024317012198733, 11.323641575516767)}}},
		{"fixes orders of ties",
			[][]Rating{{w1}, {x1}, {y1}, {z1}}, []int{1, 3, 1, 0},
			[][]Rating{{r(15.340043358359136, 8.213141619804967)}, {r(18.007678675484204, 8.189033933813437)},
				{r(24.25801928251219, 8.166918055585525)}, {r(32.39425868364447, 8.247687230833794)}}},
		{"four-way-tie with newbies",
			[][]Rating{{New()}, {New()}, {New()}, {New()}}, []int{0, 0, 0, 0},
			[][]Rating{{r(25, 8.263571791259416)}, {r(25, 8.263571791259416)}, {r(25, 8.263571791259416)}, {r(25, 8.263571791259416)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkTeams(t, Rate(tc.teams, tc.rank), tc.want) })
	}
}

// The model without the drift: openskill.js's published cases of the
// plackettLuce model function itself (src/models/__tests__/
// plackett-luce.test.ts), which rate() wraps.
func TestPlackettLuceMatchesOpenSkillModelCases(t *testing.T) {
	p := New()
	cases := []struct {
		name  string
		teams [][]Rating
		rank  []int
		want  [][]Rating
	}{
		{"2p FFA", [][]Rating{{p}, {p}}, []int{0, 1},
			[][]Rating{{r(27.63523138347365, 8.065506316323548)}, {r(22.36476861652635, 8.065506316323548)}}},
		{"3p FFA", [][]Rating{{p}, {p}, {p}}, []int{0, 1, 2},
			[][]Rating{{r(27.868876552746237, 8.204837030780652)}, {r(25.717219138186557, 8.057829747583874)},
				{r(21.413904309067206, 8.057829747583874)}}},
		{"5p FFA", [][]Rating{{p}, {p}, {p}, {p}, {p}}, []int{0, 1, 2, 3, 4},
			[][]Rating{{r(27.666666666666668, 8.290556877154474)}, {r(26.833333333333332, 8.240145629781066)},
				{r(25.72222222222222, 8.179996679645559)}, {r(24.055555555555557, 8.111796013701358)},
				{r(20.72222222222222, 8.111796013701358)}}},
		{"3 teams different sized players", [][]Rating{{p, p, p}, {p}, {p, p}}, []int{0, 1, 2},
			[][]Rating{{r(25.939870821784513, 8.247641552260456), r(25.939870821784513, 8.247641552260456), r(25.939870821784513, 8.247641552260456)},
				{r(27.21366020491262, 8.274321317985242)},
				{r(21.84646897330287, 8.213058173195341), r(21.84646897330287, 8.213058173195341)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkTeams(t, plackettLuce(tc.teams, tc.rank), tc.want) })
	}
}

func TestWinnerRisesLoserFallsBothNarrow(t *testing.T) {
	for _, sizes := range [][2]int{{1, 1}, {4, 8}, {8, 4}, {3, 9}} {
		teams := [][]Rating{repeat(New(), sizes[0]), repeat(New(), sizes[1])}
		out := Rate(teams, []int{0, 1})
		for j, p := range out[0] {
			if p.Mu <= teams[0][j].Mu || p.Sigma >= teams[0][j].Sigma {
				t.Errorf("%v: winner %d went %+v → %+v; want mu up, sigma down", sizes, j, teams[0][j], p)
			}
		}
		for j, p := range out[1] {
			if p.Mu >= teams[1][j].Mu || p.Sigma >= teams[1][j].Sigma {
				t.Errorf("%v: loser %d went %+v → %+v; want mu down, sigma down", sizes, j, teams[1][j], p)
			}
		}
	}
}

// A favourite who wins learns less than an underdog who wins.
func TestUpsetMovesMoreThanExpectedWin(t *testing.T) {
	strong, weak := r(30, 4), r(20, 4)
	expected := Rate([][]Rating{{strong}, {weak}}, []int{0, 1})
	upset := Rate([][]Rating{{strong}, {weak}}, []int{1, 0})
	gain := expected[0][0].Mu - strong.Mu
	loss := strong.Mu - upset[0][0].Mu
	if !(gain > 0 && loss > gain) {
		t.Errorf("favourite: +%.4g for the expected win, −%.4g for the upset; want 0 < win < upset", gain, loss)
	}
}

// A tie between equals changes no mean, and treats the two teams alike
// whatever order they are given in.
func TestTieIsSymmetric(t *testing.T) {
	a, b := r(27, 5), r(22, 7)
	ab := Rate([][]Rating{{a}, {b}}, []int{0, 0})
	ba := Rate([][]Rating{{b}, {a}}, []int{0, 0})
	if ab[0][0] != ba[1][0] || ab[1][0] != ba[0][0] {
		t.Errorf("tie depends on order: %v vs %v", ab, ba)
	}
	if !(ab[0][0].Mu < a.Mu && ab[1][0].Mu > b.Mu) {
		t.Errorf("tie of a favourite: %v; want the favourite down, the other up", ab)
	}
	eq := Rate([][]Rating{{New()}, {New()}}, []int{0, 0})
	if eq[0][0].Mu != Mu0 || eq[1][0].Mu != Mu0 || eq[0][0] != eq[1][0] {
		t.Errorf("tie of equals: %v; want both unchanged at mu %v and alike", eq, Mu0)
	}
}

// In uneven teams the team's change is shared by variance: the members of
// a team of equals all get the same change; a member who is less certain
// moves more; and when a big team of equals beats a small one (the
// expected result: its summed skill is larger) everyone moves less than
// when the small one wins.
func TestUnevenTeamsShareByVariance(t *testing.T) {
	small, big := repeat(New(), 4), repeat(New(), 8)
	expected := Rate([][]Rating{small, big}, []int{1, 0})
	upset := Rate([][]Rating{small, big}, []int{0, 1})
	for _, out := range [][][]Rating{expected, upset} {
		for _, team := range out {
			for _, p := range team {
				if p != team[0] {
					t.Fatalf("equal members got different updates: %v", team)
				}
			}
		}
	}
	gainBig, lossSmall := expected[1][0].Mu-Mu0, Mu0-expected[0][0].Mu
	gainSmall, lossBig := upset[0][0].Mu-Mu0, Mu0-upset[1][0].Mu
	if !(gainBig > 0 && lossSmall > 0 && gainSmall > gainBig && lossBig > lossSmall) {
		t.Errorf("8 beat 4: +%.4g / −%.4g; 4 beat 8: +%.4g / −%.4g; want the upset to move more", gainBig, lossSmall, gainSmall, lossBig)
	}
	mixed := Rate([][]Rating{{r(25, 2), r(25, 8)}, {New(), New()}}, []int{0, 1})
	if sure, unsure := mixed[0][0].Mu-25, mixed[0][1].Mu-25; !(0 < sure && sure < unsure) {
		t.Errorf("winners: the sure one +%.4g, the unsure one +%.4g; want 0 < sure < unsure", sure, unsure)
	}
}

func TestRateLeavesInputAlone(t *testing.T) {
	teams := [][]Rating{{New()}, {New(), r(30, 2)}}
	Rate(teams, []int{0, 1})
	if teams[0][0] != New() || teams[1][1] != r(30, 2) {
		t.Errorf("Rate changed its input: %v", teams)
	}
}

func TestOrdinalAndInterval(t *testing.T) {
	p := r(30, 2)
	if p.Ordinal() != 24 {
		t.Errorf("ordinal of %v: %v, want 24", p, p.Ordinal())
	}
	if lo, hi := p.Interval(); !near(lo, 26.08) || !near(hi, 33.92) {
		t.Errorf("interval of %v: [%v, %v], want [26.08, 33.92]", p, lo, hi)
	}
	if New().Ordinal() != 0 {
		t.Errorf("a new player's ordinal is %v, want 0", New().Ordinal())
	}
}

// Many wins of one side against another make the means part and the
// intervals shrink: the property the arena relies on.
func TestRepeatedWinsSeparate(t *testing.T) {
	a, b := New(), New()
	for range 200 {
		out := Rate([][]Rating{{a}, {b}}, []int{0, 1})
		a, b = out[0][0], out[1][0]
	}
	alo, _ := a.Interval()
	_, bhi := b.Interval()
	if !(alo > bhi) || a.Sigma >= Sigma0 || b.Sigma >= Sigma0 {
		t.Errorf("after 200 wins: %+v vs %+v; want non-overlapping intervals, sigmas below %v", a, b, Sigma0)
	}
}

func TestRatePanicsOnMismatchedRanks(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Rate with 2 teams and 1 rank did not panic")
		}
	}()
	Rate([][]Rating{{New()}, {New()}}, []int{0})
}

func repeat(p Rating, n int) []Rating {
	out := make([]Rating, n)
	for i := range out {
		out[i] = p
	}
	return out
}

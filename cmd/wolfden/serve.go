package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/internal/ledger"
	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/postgres"
	"github.com/wolfden/wolfden/internal/store/sqlite"
	"github.com/wolfden/wolfden/web"
)

func serveCmd() *cobra.Command {
	var addr, db, logFormat, publicURL, rpID string
	var l listeners
	var origins, proxies []string
	var drain, linger time.Duration
	var roomRate, joinRate, authRate, ipv6Prefix int
	var countShare float64
	var season string
	var af aiwolfFlags
	var lf llmFlags
	var vf voiceFlags
	var cf chatFlags
	var bf busFlag
	var df domainFlags
	cmd := &cobra.Command{
		Use:   "serve [--addr HOST:PORT | --domain NAME] [--db FILE|postgres://…] [--metrics-addr HOST:PORT] [--tls-cert FILE --tls-key FILE]",
		Short: "Run the game server: rooms, real-time play over WebSockets, stored games",
		Long: `Run the game server (docs/server.md). It listens on 127.0.0.1:8080 and keeps
everything in ./wolfden.db (SQLite) unless --addr / WOLFDEN_ADDR and
--db / WOLFDEN_DB say otherwise: a file is an SQLite database, a URL
postgres://USER[:PASSWORD]@HOST:PORT/DATABASE a PostgreSQL one. Games in play
when the server stopped or crashed resume where they were, timers included.

/metrics and /readyz are served only on the operator listener, --metrics-addr
(env WOLFDEN_METRICS_ADDR), off unless given. With --tls-cert and --tls-key
the server speaks HTTPS (and WSS) on --addr. With --domain NAME (a DNS
name pointing at this machine) it serves HTTPS on :443 under that name,
with a certificate it obtains and renews by ACME (Let's Encrypt unless
--acme-directory says otherwise), and redirects :80 to it.

On SIGTERM or Ctrl-C the server drains: /readyz answers 503, no new room or
game starts, the games being played go on until they end or --drain runs
out; games still running then are stored and resume at the next start.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("addr") {
				if v := os.Getenv("WOLFDEN_ADDR"); v != "" {
					addr = v
				}
			}
			if !cmd.Flags().Changed("db") {
				if v := os.Getenv("WOLFDEN_DB"); v != "" {
					db = v
				}
			}
			if !cmd.Flags().Changed("metrics-addr") {
				l.metrics = os.Getenv("WOLFDEN_METRICS_ADDR")
			}
			var h slog.Handler
			switch logFormat {
			case "text":
				h = slog.NewTextHandler(cmd.ErrOrStderr(), nil)
			case "json":
				h = slog.NewJSONHandler(cmd.ErrOrStderr(), nil)
			default:
				return fmt.Errorf("serve: --log must be text or json, not %q", logFormat)
			}
			if drain < 0 || linger <= 0 || roomRate < 0 || joinRate < 0 || authRate < 0 {
				return errors.New("serve: --drain, --room-rate, --join-rate and --auth-rate cannot be negative and --linger must be positive")
			}
			if !cmd.Flags().Changed("ipv6-prefix") {
				if v := os.Getenv("WOLFDEN_IPV6_PREFIX"); v != "" {
					if _, err := fmt.Sscan(v, &ipv6Prefix); err != nil {
						return fmt.Errorf("serve: WOLFDEN_IPV6_PREFIX=%q is not a number of bits", v)
					}
				}
			}
			if ipv6Prefix < 1 || ipv6Prefix > 128 {
				return fmt.Errorf("serve: --ipv6-prefix %d: the bits of an IPv6 address that name one client go from 1 to 128 (64: a subscriber's network; 128: each address alone)", ipv6Prefix)
			}
			trusted, err := parseProxies(proxies)
			if err != nil {
				return err
			}
			if publicURL != "" {
				if err := server.CheckPublicURL(publicURL); err != nil {
					return fmt.Errorf("serve: %v", err)
				}
			}
			l.addr = addr
			if l.tls, err = loadTLS(l.certFile, l.keyFile); err != nil {
				return err
			}
			cluster := bf.url != "" || os.Getenv("WOLFDEN_BUS") != "" || cmd.Flags().Changed("node") || cmd.Flags().Changed("lease-ttl")
			addrSet := cmd.Flags().Changed("addr") || os.Getenv("WOLFDEN_ADDR") != ""
			if l.domain, err = df.config(cmd.Flags().Changed, db, addrSet, l.tls != nil, cluster, slog.New(h)); err != nil {
				return fmt.Errorf("serve: %v", err)
			}
			if l.domain != nil && publicURL == "" {
				publicURL = l.domain.m.PublicURL()
			}
			opts := server.Options{Origins: origins, Linger: linger, Log: slog.New(h), Web: web.Dist(),
				RoomsPerMinute: roomRate, JoinsPerMinute: joinRate, TrustedProxies: trusted, PublicURL: publicURL,
				IPv6Prefix: ipv6Prefix, RPID: rpID, AuthPerMinute: authRate, Fairness: ledger.Rules{MinShare: countShare}}
			if authRate == 0 {
				opts.AuthPerMinute = -1 // no bound
			}
			if countShare <= 0 || countShare > 1 {
				return fmt.Errorf("serve: --count-people %v: the share of the seats that must be people for a game to count goes from above 0 to 1 (0.5: half)", countShare)
			}
			if opts.Seasons, err = ledger.ParseSeasons(season); err != nil {
				return fmt.Errorf("serve: --season: %v", err)
			}
			if opts.LLM, err = lf.config(cmd.Flags().Changed); err != nil {
				return fmt.Errorf("serve: %v", err)
			}
			if opts.LLM != nil { // the key is never logged
				opts.Log.Info("llm bots", "endpoint", opts.LLM.Endpoint(), "model", opts.LLM.Model)
			}
			if opts.Chat, err = cf.platforms(cmd.Flags().Changed, opts.Log); err != nil {
				return fmt.Errorf("serve: %v", err)
			}
			if opts.AIWolf, err = af.config(cmd.Flags().Changed); err != nil {
				return fmt.Errorf("serve: %v", err)
			}
			l.aiwolf = af.addr
			if l.aiwolf != "" && l.aiwolf == addr && l.domain == nil {
				// The reference's files put agents on 127.0.0.1:8080, wolfden's --addr default.
				return fmt.Errorf("serve: the AIWolf gateway's address %s (--aiwolf-addr, or server.web_socket in --aiwolf-config) is the main listener's too: give --addr another (e.g. --addr 127.0.0.1:8000)", addr)
			}
			if cluster || bf.given(cmd.Flags().Changed) {
				if !isPostgres(db) {
					return errors.New("serve: a cluster's nodes share one database: --bus needs --db postgres://… (docs/cluster.md)")
				}
				if opts.AIWolf != nil {
					return errors.New("serve: the AIWolf gateway runs on one server, not on a cluster's node: drop --aiwolf or --bus")
				}
				if len(opts.Chat) > 0 {
					return errors.New("serve: the chat platforms run on one server, not on a cluster's node: drop --onebot, --telegram-token and --discord-token, or --bus")
				}
				b, err := bf.open(cmd.Context(), cmd.Flags().Changed, addr, opts.Log)
				if err != nil {
					return err
				}
				if b != nil {
					defer b.Close()
					opts.Ready = append(opts.Ready, b.Ready)
					opts.Cluster = &server.Cluster{Node: bf.node, Bus: b, TTL: bf.ttl}
				}
			}
			if opts.Voice, err = vf.stack(cmd.Flags().Changed, addr); err != nil {
				return err
			}
			if opts.Voice != nil {
				defer opts.Voice.Close()
			}
			return serve(cmd.Context(), l, db, opts, drain, cmd.OutOrStdout())
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (env WOLFDEN_ADDR)")
	cmd.Flags().StringVar(&db, "db", "wolfden.db", "SQLite database file, or a PostgreSQL URL postgres://USER@HOST:PORT/DB (env WOLFDEN_DB)")
	cmd.Flags().StringSliceVar(&origins, "origin", nil, "other hosts whose pages may open WebSockets (e.g. game.example.com)")
	cmd.Flags().DurationVar(&drain, "drain", 30*time.Second, "on SIGTERM, how long running games may go on before the server stops")
	cmd.Flags().DurationVar(&linger, "linger", 10*time.Minute, "how long a finished game stays live for its players")
	cmd.Flags().StringVar(&logFormat, "log", "text", "log format: text or json")
	cmd.Flags().IntVar(&roomRate, "room-rate", 60, "rooms one address may create a minute (0: no limit, for load tests)")
	cmd.Flags().IntVar(&joinRate, "join-rate", 10, "seats one address may take a minute (0: no limit, for load tests)")
	cmd.Flags().IntVar(&ipv6Prefix, "ipv6-prefix", server.DefaultIPv6Prefix, "IPv6 clients count as one address per prefix of this many bits for every per-address limit (env WOLFDEN_IPV6_PREFIX; 128: each address alone)")
	cmd.Flags().StringVar(&l.metrics, "metrics-addr", "", "operator listener for /metrics and /readyz (env WOLFDEN_METRICS_ADDR; off if empty)")
	cmd.Flags().StringVar(&l.certFile, "tls-cert", "", "serve HTTPS with this certificate (PEM; with --tls-key)")
	cmd.Flags().StringVar(&l.keyFile, "tls-key", "", "the certificate's private key (PEM; with --tls-cert)")
	cmd.Flags().Float64Var(&countShare, "count-people", ledger.DefaultMinShare, "the share of a game's seats that must be people (not bots) for it to count in players' statistics and ratings (docs/accounts.md)")
	cmd.Flags().StringVar(&season, "season", string(ledger.Quarter), "how long a rating season lasts: quarter, month or year (docs/accounts.md)")
	cmd.Flags().StringVar(&publicURL, "public-url", "", "where players reach the server (https://wolf.example.com), for the room QR codes' links behind a proxy")
	cmd.Flags().IntVar(&authRate, "auth-rate", server.DefaultAuthPerMinute, "sign-ins and sign-ups one address may try a minute (0: no limit)")
	cmd.Flags().StringVar(&rpID, "rp-id", "", "the domain players' passkeys belong to (default: --domain, --public-url's host, else the host each request came to)")
	lf.add(cmd)
	cf.add(cmd)
	af.add(cmd)
	vf.add(cmd)
	bf.add(cmd)
	df.add(cmd)
	cmd.Flags().StringSliceVar(&proxies, "trusted-proxy", nil, "reverse proxies (address or CIDR) whose X-Forwarded-For names the client")
	return cmd
}

// listeners are where the server listens: the public address (HTTPS when
// tls is set) and the operator's, if any.
type listeners struct {
	addr, metrics     string
	aiwolf            string // the AIWolf gateway's own listener (/ws), if any
	certFile, keyFile string
	tls               *tls.Config
	domain            *domainListen // --domain: HTTPS by ACME instead of addr
}

// loadTLS reads the certificate and its key; neither is no TLS.
func loadTLS(certFile, keyFile string) (*tls.Config, error) {
	switch {
	case certFile == "" && keyFile == "":
		return nil, nil
	case certFile == "" || keyFile == "":
		return nil, errors.New("serve: --tls-cert and --tls-key go together: give both (HTTPS) or neither (HTTP)")
	}
	certPEM, err := os.ReadFile(certFile)
	if err != nil {
		return nil, fmt.Errorf("serve: --tls-cert: %v", err)
	}
	keyPEM, err := os.ReadFile(keyFile)
	if err != nil {
		return nil, fmt.Errorf("serve: --tls-key: %v", err)
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("serve: --tls-cert %s and --tls-key %s: %v", certFile, keyFile, err)
	}
	// HTTP/1.1 only: WebSockets are upgrades of HTTP/1.1 requests.
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}}, nil
}

// parseProxies reads --trusted-proxy: addresses or CIDR prefixes.
func parseProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, p := range list {
		if a, err := netip.ParseAddr(p); err == nil {
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
			continue
		}
		pr, err := netip.ParsePrefix(p)
		if err != nil {
			return nil, fmt.Errorf("serve: --trusted-proxy %q is not an address or a CIDR prefix such as 10.0.0.0/8", p)
		}
		out = append(out, pr.Masked())
	}
	return out, nil
}

// isPostgres: a postgres:// or postgresql:// URL is a PostgreSQL
// database, anything else an SQLite file.
func isPostgres(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// openStore opens --db, and says which database it is, for the log,
// without a password. A cluster's node (cl) shares a PostgreSQL database
// with the other nodes, its writes fenced by its leases; any other server
// takes its database for itself.
func openStore(ctx context.Context, db string, cl *server.Cluster) (store.Store, string, error) {
	if !isPostgres(db) {
		st, err := sqlite.OpenWith(db, sqlite.Options{CopierProcess: true})
		if err != nil {
			return nil, db, err
		}
		return st, db, nil
	}
	shown := "PostgreSQL"
	if u, err := url.Parse(db); err == nil {
		shown = "PostgreSQL " + u.Redacted()
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	st, err := postgres.Open(ctx, db)
	if err != nil {
		return nil, shown, err
	}
	if cl != nil {
		f, err := st.Fenced(cl.Node)
		if err != nil {
			st.Close()
			return nil, shown, err
		}
		cl.Leases = f.Keeper()
		return f, shown + ", node " + cl.Node, nil
	}
	// One server per database, unless it is a cluster's.
	if err := st.Exclusive(ctx); err != nil {
		st.Close()
		return nil, shown, err
	}
	return st, shown, nil
}

func serve(ctx context.Context, l listeners, dbPath string, opts server.Options, drain time.Duration, out interface{ Write([]byte) (int, error) }) error {
	st, dbPath, err := openStore(ctx, dbPath, opts.Cluster)
	if err != nil {
		return fmt.Errorf("serve: %v", err)
	}
	defer st.Close()
	if p, ok := st.(interface{ Ping(context.Context) error }); ok { // PostgreSQL: /readyz says when it does not answer
		opts.Ready = append(opts.Ready, func() error {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			return p.Ping(ctx)
		})
	}
	srv := server.New(st, opts)
	t0 := time.Now()
	n, err := srv.Restore(ctx)
	if err != nil {
		return fmt.Errorf("serve: resuming the stored games: %v", err)
	}
	opts.Log.Info("games resumed", "games", n, "took", time.Since(t0).Round(time.Millisecond).String())
	addr := l.addr
	if l.domain != nil {
		addr = l.domain.https
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		srv.Stop()
		return fmt.Errorf("serve: %v", err)
	}
	scheme, shown := "http", ln.Addr().String()
	switch {
	case l.domain != nil:
		ln, scheme = tls.NewListener(ln, l.domain.m.TLSConfig()), "https"
		shown = strings.TrimPrefix(l.domain.m.PublicURL(), "https://") + ", listening on " + shown
	case l.tls != nil:
		ln, scheme = tls.NewListener(ln, l.tls), "https"
	}
	hs := server.HTTPServer(srv)
	// A failed handshake (a scanner, a certificate not obtained yet) is a
	// line of the server's own log, not of the process's bare stderr.
	hs.ErrorLog = slog.NewLogLogger(opts.Log.Handler(), slog.LevelWarn)
	errc := make(chan error, 4)
	var op *http.Server
	opAt := ""
	if l.metrics != "" {
		oln, err := net.Listen("tcp", l.metrics)
		if err != nil {
			ln.Close()
			srv.Stop()
			return fmt.Errorf("serve: --metrics-addr: %v", err)
		}
		op = &http.Server{Handler: srv.Operator(), ReadHeaderTimeout: server.ReadHeaderTimeout}
		opAt = fmt.Sprintf("; operator listener on http://%s", oln.Addr())
		go func() { errc <- op.Serve(oln) }()
	}
	var aw *http.Server
	if l.aiwolf != "" {
		aln, err := net.Listen("tcp", l.aiwolf)
		if err != nil {
			ln.Close()
			srv.Stop()
			return fmt.Errorf("serve: --aiwolf-addr: %v", err)
		}
		aw = &http.Server{Handler: srv.AIWolf(), ReadHeaderTimeout: server.ReadHeaderTimeout}
		opAt += fmt.Sprintf("; AIWolf agents on ws://%s/ws", aln.Addr())
		go func() { errc <- aw.Serve(aln) }()
	}
	var redirect *http.Server
	if l.domain != nil && l.domain.http != "" {
		rln, err := net.Listen("tcp", l.domain.http)
		if err != nil {
			ln.Close()
			for _, o := range []*http.Server{op, aw} {
				if o != nil {
					o.Close()
				}
			}
			srv.Stop()
			return fmt.Errorf("serve: --http-addr: %v", err)
		}
		redirect = &http.Server{Handler: l.domain.m.HTTPHandler(), ReadHeaderTimeout: server.ReadHeaderTimeout}
		opAt += fmt.Sprintf("; http://%s redirects to HTTPS", rln.Addr())
		go func() { errc <- redirect.Serve(rln) }()
	}
	fmt.Fprintf(out, "wolfden serving on %s://%s (database %s)%s\n", scheme, shown, dbPath, opAt)
	go func() { errc <- hs.Serve(ln) }()
	if l.domain != nil {
		go l.domain.m.Obtain()
	}
	select {
	case err := <-errc:
		srv.Stop()
		return fmt.Errorf("serve: %v", err)
	case <-ctx.Done():
	}
	opts.Log.Info("draining", "for", drain.String())
	srv.Drain()
	dctx, cancel := context.WithTimeout(context.Background(), drain)
	if err := srv.Wait(dctx); err != nil {
		opts.Log.Info("games still running are stored and resume at the next start")
	}
	cancel()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Close(sctx) // connections get their last frames
	_ = hs.Shutdown(sctx)
	if op != nil {
		_ = op.Shutdown(sctx)
	}
	if aw != nil {
		_ = aw.Shutdown(sctx)
	}
	if redirect != nil {
		_ = redirect.Shutdown(sctx)
	}
	opts.Log.Info("stopped")
	return nil
}

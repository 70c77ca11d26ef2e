package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/wolfden/wolfden/internal/accounts"
	"github.com/wolfden/wolfden/internal/server"
	"github.com/wolfden/wolfden/internal/store"
	"github.com/wolfden/wolfden/internal/store/postgres"
	"github.com/wolfden/wolfden/internal/store/sqlite"
)

func accountsCmd() *cobra.Command {
	var db, operator string
	cmd := &cobra.Command{
		Use:   "accounts list | lock NAME | unlock NAME [--db FILE|postgres://…] [--operator HOST:PORT]",
		Short: "List players' accounts, lock or unlock one (the operator's)",
		Long: `List the players' accounts, or lock or unlock one by its name
(docs/accounts.md). A locked account cannot sign in, and its sessions are
refused at once; its games stay. The command works on the database (--db,
env WOLFDEN_DB; PostgreSQL while servers run, an SQLite file only while no
server holds it), or on a running server's operator listener with
--operator HOST:PORT (its --metrics-addr).`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 1 && args[0] == "list":
			case len(args) == 2 && (args[0] == "lock" || args[0] == "unlock"):
			default:
				return errors.New("accounts: say list, lock NAME or unlock NAME")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("db") {
				if v := os.Getenv("WOLFDEN_DB"); v != "" {
					db = v
				}
			}
			var list []server.AccountInfo
			var err error
			if operator != "" {
				list, err = accountsOnOperator(cmd.Context(), operator, args)
			} else {
				list, err = accountsOnDB(cmd.Context(), db, args)
			}
			if err != nil {
				return fmt.Errorf("accounts: %v", err)
			}
			return printAccounts(cmd.OutOrStdout(), list)
		},
	}
	cmd.Flags().StringVar(&db, "db", "wolfden.db", "SQLite database file, or a PostgreSQL URL postgres://USER@HOST:PORT/DB (env WOLFDEN_DB)")
	cmd.Flags().StringVar(&operator, "operator", "", "a running server's operator listener (HOST:PORT, its --metrics-addr) instead of the database")
	return cmd
}

func accountsOnDB(ctx context.Context, db string, args []string) ([]server.AccountInfo, error) {
	var st store.Accounts
	if isPostgres(db) { // not Exclusive: the servers on it keep running
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		p, err := postgres.Open(ctx, db)
		if err != nil {
			return nil, err
		}
		defer p.Close()
		st = p
	} else {
		s, err := sqlite.Open(db)
		if errors.Is(err, sqlite.ErrInUse) {
			return nil, fmt.Errorf("%v; or ask that server: wolfden accounts %s --operator HOST:PORT (its --metrics-addr)", err, strings.Join(args, " "))
		}
		if err != nil {
			return nil, err
		}
		defer s.Close()
		st = s
	}
	if args[0] == "list" {
		all, err := st.ListAccounts(ctx)
		if err != nil {
			return nil, err
		}
		out := []server.AccountInfo{}
		for _, a := range all {
			out = append(out, server.Describe(a))
		}
		return out, nil
	}
	a, err := accounts.New(st, accounts.Options{}).Lock(ctx, args[1], args[0] == "lock")
	if err != nil {
		return nil, err
	}
	return []server.AccountInfo{server.Describe(a)}, nil
}

func accountsOnOperator(ctx context.Context, addr string, args []string) ([]server.AccountInfo, error) {
	base := addr
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	method, path := "GET", "/accounts"
	if args[0] != "list" {
		method, path = "POST", "/accounts/"+pathEscape(args[1])+"/"+args[0]
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(base, "/")+path, nil)
	if err != nil {
		return nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	if res.StatusCode != http.StatusOK {
		var e struct {
			Error struct{ Message string } `json:"error"`
		}
		if json.Unmarshal(body, &e) == nil && e.Error.Message != "" {
			return nil, errors.New(e.Error.Message)
		}
		return nil, fmt.Errorf("%s %s: %s", method, path, res.Status)
	}
	if args[0] == "list" {
		var list []server.AccountInfo
		return list, json.Unmarshal(body, &list)
	}
	var one server.AccountInfo
	return []server.AccountInfo{one}, json.Unmarshal(body, &one)
}

func pathEscape(s string) string { return url.PathEscape(s) }

func printAccounts(w io.Writer, list []server.AccountInfo) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tLOCKED\tPUBLIC\tPASSWORD\tCREATED")
	for _, a := range list {
		fmt.Fprintf(tw, "%s\t%v\t%v\t%v\t%s\n", a.Name, a.Locked, a.Public, a.Password, a.Created.Format(time.DateOnly))
	}
	return tw.Flush()
}

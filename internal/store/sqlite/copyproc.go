package sqlite

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
)

// A checkpoint's copies go through two fsyncs, of the WAL before it and of
// the database after it, each 2.5 to 5 ms on an ext4 disk. A goroutine in
// a system call keeps its processor until the runtime's monitor hands it
// over, which on a busy server looks only every 10 ms (golang/go#18236):
// with one processor, every game waited for both. The copier process makes
// the checkpointer's copies instead, on a connection of its own to the same
// file (SQLite's WAL is made for several processes), so that its fsyncs
// hold none of the server's processors; an AIWolf agent's p99 turnaround
// was a fifth shorter (docs/benchmarks.md). It is this program run again
// with copierEnv set to the database's path; the copies, their order and
// their syncs are SQLite's own, as in the server's process.
//
// The server and the copier talk over the copier's standard input and
// output: a byte asks for a checkpoint, and the copier answers a byte once
// it has caught up (0) or failed (1). The copier ends when its input does,
// the server's Close or death alike.
const copierEnv = "WOLFDEN_SQLITE_COPIER"

func init() {
	if path := os.Getenv(copierEnv); path != "" {
		os.Exit(copierMain(path, os.Stdin, os.Stdout, os.Stderr))
	}
}

// copierMain is the copier process: a checkpoint for each byte read. It
// ignores the signals that stop a server (a terminal's Ctrl-C reaches the
// whole process group): it ends when the server, stopping, closes its
// input.
func copierMain(path string, in io.Reader, out io.Writer, errs io.Writer) int {
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	yieldToServer()
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		fmt.Fprintf(errs, "wolfden: the checkpoint copier: %v\n", err)
		return 1
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		fmt.Fprintf(errs, "wolfden: the checkpoint copier: %v\n", err)
		return 1
	}
	defer conn.Close()
	r := bufio.NewReader(in)
	for {
		if _, err := r.ReadByte(); err != nil {
			return 0 // the server has closed the store, or died
		}
		answer := []byte{0}
		if err := passes(ctx, conn); err != nil {
			answer[0] = 1
		}
		if _, err := out.Write(answer); err != nil {
			return 0
		}
	}
}

// copier is the server's end of a copier process. The checkpointer and
// the writer (restart) share it.
type copier struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  io.ReadCloser
	mu   sync.Mutex // a checkpoint's question and answer
	dead bool       // its pipes failed: this process copies from then on
	made int        // the checkpoints it made
	once sync.Once
}

// startCopier starts a copier process for the database at path.
func startCopier(path string) (*copier, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if path, err = filepath.Abs(path); err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), copierEnv+"="+path)
	cmd.Stderr = os.Stderr
	c := &copier{cmd: cmd}
	if c.in, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if c.out, err = cmd.StdoutPipe(); err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return c, nil
}

var errCopier = errors.New("sqlite: the checkpoint copier failed a checkpoint")

// checkpoint has the copier make a checkpoint, and waits for it: on a
// pipe, which leaves the processor to the other goroutines. It fails at
// once for a copier that died before (or none); one whose pipes fail is
// stopped.
func (c *copier) checkpoint() error {
	if c == nil {
		return errCopier
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead {
		return errCopier
	}
	err := c.ask()
	if errors.Is(err, errCopier) {
		return err // its checkpoint failed, as this process's may
	}
	if err != nil { // the process is gone, or its pipes
		c.dead = true
		go c.stop()
		return err
	}
	c.made++
	return nil
}

func (c *copier) ask() error {
	if _, err := c.in.Write([]byte{1}); err != nil {
		return err
	}
	var answer [1]byte
	if _, err := io.ReadFull(c.out, answer[:]); err != nil {
		return err
	}
	if answer[0] != 0 {
		return errCopier
	}
	return nil
}

// stop ends the copier and waits for it.
func (c *copier) stop() {
	if c == nil {
		return
	}
	c.once.Do(func() {
		c.in.Close()
		_ = c.cmd.Wait()
	})
}

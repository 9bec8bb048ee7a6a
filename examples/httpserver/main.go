// Command httpserver serves Claude Code's http hooks: one long-running
// process on 127.0.0.1 that answers every session's hook calls with the
// same hook.Handler a command hook would run, without a process start per
// tool call. It serves, in one hook.Mux:
//
//   - bashguard's rules for Bash (rm -rf of the home or project folder, a
//     force push to main, …), failing closed: a guard that breaks denies;
//   - the rewrite example's rule for Bash: foreground commands bounded at
//     ten minutes with coreutils' `timeout 600`;
//   - the fingerprint example for the MCP tool listen_here: the fingerprint
//     of the session's folder added to the arguments, every other member
//     kept byte for byte;
//   - the stopguard rule: Claude may not stop while .claude/unfinished
//     exists in the session's folder.
//
// Register it once per event in the settings (the Mux routes by tool; the
// hook's timeout is in seconds):
//
//	{"hooks": {
//	  "PreToolUse": [{"matcher": "*", "hooks": [{"type": "http", "url": "http://127.0.0.1:8417/", "timeout": 10,
//	    "headers": {"Authorization": "Bearer $HOOK_TOKEN"}, "allowedEnvVars": ["HOOK_TOKEN"]}]}],
//	  "Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:8417/", "timeout": 10,
//	    "headers": {"Authorization": "Bearer $HOOK_TOKEN"}, "allowedEnvVars": ["HOOK_TOKEN"]}]}]}}
//
// and start the server with the same HOOK_TOKEN in its environment (without
// one it accepts any caller on the loopback interface; drop the two
// header lines then):
//
//	HOOK_TOKEN=$(openssl rand -hex 16) go run ./examples/httpserver -addr 127.0.0.1:8417
//
// Claude Code reads any status other than 2xx, a refused connection and a
// timeout as a non-blocking error and lets the action through; add
// "onFailure": "block" to a hook entry to have those block instead. The
// server logs one line per request on stderr and stops gracefully on
// SIGTERM or SIGINT: it stops accepting, lets the calls in flight finish
// (at most ten seconds), and exits 0.
//
// The rules read the session from the event (its cwd); the server's own
// environment gives the home folder, so run it as the user whose sessions
// it guards. A server for a team behind a load balancer would drop the
// rules that read local files (stopguard, the timeout rewrite's $PATH
// lookup).
package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/examples/internal/bashrules"
	"github.com/gohooks/hook/examples/internal/stoprules"
	"github.com/gohooks/hook/examples/internal/timeout"
	"github.com/gohooks/hook/hookhttp"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv("HOOK_TOKEN"), os.Stderr, nil); err != nil {
		fmt.Fprintln(os.Stderr, "httpserver:", err)
		os.Exit(1)
	}
}

// Server limits. Claude Code sends each call at once on a kept-alive
// connection, so a slow client is a broken or hostile one.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 30 * time.Second
	// writeTimeout bounds the whole call (the handler's Timeout too).
	writeTimeout = 60 * time.Second
	// idleTimeout outlives Claude Code's pauses between tool calls less
	// than the time it keeps a connection: it reconnects when needed.
	idleTimeout    = 5 * time.Minute
	maxHeaderBytes = 64 << 10
	// handlerTimeout is below the settings' hook timeout (10 s), so that
	// the guard's fail-closed answer arrives before Claude Code gives up.
	handlerTimeout = 8 * time.Second
	shutdownGrace  = 10 * time.Second
)

// run serves on the -addr flag's address until ctx is done, then shuts
// down gracefully. token, when not empty, is required as a bearer token.
// ready, when not nil, gets the address listened on.
func run(ctx context.Context, args []string, token string, stderr io.Writer, ready func(addr string)) error {
	fs := flag.NewFlagSet("httpserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8417", "address to listen on (keep it on loopback unless a proxy adds TLS)")
	quiet := fs.Bool("quiet", false, "log failures only, not one line per request")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	opts := &hookhttp.Options{BearerToken: token, Logger: log}
	if *quiet {
		opts.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	}
	srv := &hook.Server{Timeout: handlerTimeout}
	mux := http.NewServeMux()
	mux.Handle("/", hookhttp.ServerHandler(srv, Handler(), opts))

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	log.Info("serving hooks", "url", "http://"+ln.Addr().String()+"/", "token", token != "")
	if ready != nil {
		ready(ln.Addr().String())
	}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Handler returns the hook: the rules above in one Mux.
func Handler() hook.Handler {
	return newHandler(exec.LookPath, nil)
}

// newHandler builds the hook with a $PATH lookup and a branch lookup (nil:
// ask git).
func newHandler(lookPath func(string) (string, error), branch func(ctx context.Context, dir string) (string, error)) hook.Handler {
	home, _ := os.UserHomeDir()
	m := hook.NewMux()
	m.Handle("PreToolUse Bash", hook.FailClosed(hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		in, err := hook.DecodeView[hook.BashInput](e.ToolInput)
		if err != nil {
			return nil, err
		}
		// No $CLAUDE_PROJECT_DIR reaches a server: the guard protects
		// the session's folder, which Check always does.
		g := bashrules.Guard{Home: home, Branch: branch}
		reason, err := g.Check(ctx, in.Command, e.Cwd)
		if err != nil || reason == "" {
			return nil, err
		}
		return &hook.PreToolUseOutput{Decision: hook.Deny, Reason: reason}, nil
	})))
	m.Handle("PreToolUse Bash", hook.PreToolUseFunc(func(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
		return timeout.Rewrite(e, lookPath)
	}))
	m.Handle("PreToolUse mcp__.*__listen_here", hook.PreToolUseFunc(fingerprint))
	m.Handle("Stop", hook.StopFunc(stoprules.Guard))
	return m
}

// fingerprint adds the fingerprint of the session's folder to the call's
// arguments, as examples/fingerprint does.
func fingerprint(ctx context.Context, e *hook.PreToolUse) (*hook.PreToolUseOutput, error) {
	sum := sha256.Sum256([]byte(e.Cwd))
	upd, err := e.Merge(map[string]string{"fingerprint": hex.EncodeToString(sum[:8])})
	if err != nil {
		return nil, err
	}
	return &hook.PreToolUseOutput{Decision: hook.Allow, UpdatedInput: upd}, nil
}

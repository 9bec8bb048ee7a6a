// Command hookcheck runs a Claude Code hook command, written in any
// language, on the hook payloads of the hooktest fixtures and on tool
// inputs that carry hooktest's tricky values, and reports every run that
// loses or mangles a tool_input member, prints stdout Claude Code cannot
// read, gives an answer Claude Code would reject, mixes exit code 2 with
// stdout, crashes, blocks on a harmless value or overstays its timeout.
//
// Usage:
//
//	hookcheck [flags] -- COMMAND [ARGS...]
//
// Install it with
//
//	go install github.com/gohooks/hook/cmd/hookcheck@latest
//
// Each run feeds COMMAND one compact JSON object and a newline on stdin and
// then closes stdin, as Claude Code 2.1.332 does, with CLAUDE_PROJECT_DIR
// set to a fresh, empty project directory. The command runs in the current
// directory (so relative paths in COMMAND and ARGS work), without a shell:
// write -- sh -c '...' for a shell command line. Each run is bounded by
// -timeout; a run that overstays is killed with its whole process group.
// Runs go -parallel at a time.
//
// The runs come in two stages. First one control run per payload, as it
// is. Then the tricky runs, for the PreToolUse and PermissionRequest
// payloads: each puts one tricky value in place of one tool_input member's
// value. By default they form a covering set, not the cross product:
//   - every member of every payload receives -per-member values, and every
//     tricky value is used at least once;
//   - the members the control runs copied unchanged into an updatedInput
//     (where a value can come back mangled) receive every tricky value at
//     least once among them;
//   - so do the members the hook may have read for another kind of answer:
//     those it left out of its updatedInput, and all members of a payload
//     it answered without one.
//
// -full runs every value in every member. The built-in payloads include
// ones recorded from the real Claude Code, many of the same shape (event,
// tool, member names); a default run sends one payload of each shape,
// while -full and -fixtures send them all.
//
// A member that the hook's updatedInput gives one and the same value in
// every run of a payload, although the input held another value, is taken
// as the hook's own (a fingerprint the hook computes, a flag it forces):
// its change is not reported, and the report lists it. -changed names
// more members that the hook means to change. A member whose value comes
// back as the same JSON value written differently (escapes, number
// spelling) is always reported: that is the mark of a decode and
// re-encode.
//
// Exit code 1 is reported on a payload as Claude Code sends it, and on a
// tricky value of the type the member had (a string where a string was);
// exit code 2 on such a value is reported when the payload as it is
// exits 0. A hook may refuse a number where it takes a string.
//
// Exit status: 0 when every run passed, 1 when a run has findings, 2 for a
// usage error (bad flags, no command, a command that cannot be found,
// unreadable fixtures).
//
// Flags:
//
//	-changed LIST      tool_input members the hook means to change (comma-separated)
//	-event LIST        only the payloads of these events (comma-separated)
//	-fixtures DIR      the payloads of the *.json files under DIR, instead of the built-in ones
//	-full              every tricky value in every member (the full cross product)
//	-json              write the report as JSON
//	-matcher MATCHER   only the payloads with a tool_name that a settings.json matcher matches
//	-parallel N        runs at a time (default 4 × GOMAXPROCS)
//	-per-member N      tricky values per member in the default set (default 3)
//	-timeout D         time limit of one run (default 10s)
//	-values LIST       only these tricky values, by name (comma-separated)
//
// While a long run goes on, a progress line counts the runs on stderr when
// stderr is a terminal.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"time"

	"github.com/gohooks/hook"
)

// Exit statuses of hookcheck.
const (
	exitPass     = 0 // every run passed
	exitFindings = 1 // some run has findings
	exitUsage    = 2 // bad flags, no command, unreadable fixtures
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// config is what the flags ask for.
type config struct {
	command     []string
	fixturesDir string
	events      []string
	matcher     func(toolName string) bool
	values      []string
	changed     []string
	full        bool
	perMember   int
	parallel    int
	timeout     time.Duration
	json        bool
}

// usageError is a mistake in the command line or in what it names; run
// reports it and exits with status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// run is hookcheck without the process around it: it parses args (without
// the program name), runs the checks, writes the report on stdout and
// diagnostics and progress on stderr, and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitPass
		}
		fmt.Fprintf(stderr, "hookcheck: %v\n", err)
		return exitUsage
	}
	rep, err := check(ctx, cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "hookcheck: %v\n", err)
		var ue usageError
		if errors.As(err, &ue) {
			return exitUsage
		}
		return exitFindings
	}
	if cfg.json {
		err = writeJSON(stdout, rep)
	} else {
		err = writeText(stdout, rep)
	}
	if err != nil {
		fmt.Fprintf(stderr, "hookcheck: writing the report: %v\n", err)
		return exitFindings
	}
	if !rep.Passed {
		return exitFindings
	}
	return exitPass
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("hookcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: hookcheck [flags] -- COMMAND [ARGS...]\n\n"+
			"Runs a Claude Code hook command against hook payloads and tricky tool inputs\n"+
			"and reports lost or mangled tool_input members, answers Claude Code would\n"+
			"reject, exit 2 with stdout, stack traces, crashes and timeouts.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	cfg := &config{}
	var events, values, changed, matcher string
	fs.StringVar(&cfg.fixturesDir, "fixtures", "", "read the payloads from the `DIR`ectory's *.json files (searched recursively) instead of the built-in fixtures")
	fs.StringVar(&events, "event", "", "only the fixtures of these events (comma-separated `LIST`, e.g. PreToolUse)")
	fs.StringVar(&matcher, "matcher", "", "only the fixtures with a tool_name that the settings.json `MATCHER` matches (e.g. \"Edit|Write\" or \"mcp__.*\")")
	fs.StringVar(&values, "values", "", "only the tricky values with these names (comma-separated `LIST`, e.g. \"quote,big integer\")")
	fs.StringVar(&changed, "changed", "", "tool_input members the hook means to change (comma-separated `LIST`)")
	fs.BoolVar(&cfg.full, "full", false, "put every tricky value into every member (the full cross product)")
	fs.IntVar(&cfg.perMember, "per-member", 3, "tricky values each member receives in the default covering set")
	fs.IntVar(&cfg.parallel, "parallel", 4*runtime.GOMAXPROCS(0), "number of runs at a time")
	fs.DurationVar(&cfg.timeout, "timeout", 10*time.Second, "time limit of one run; the process group is killed after it")
	fs.BoolVar(&cfg.json, "json", false, "write the report as JSON")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	cfg.command = fs.Args()
	if len(cfg.command) == 0 {
		fs.Usage()
		return nil, errors.New("no hook command given (write it after --)")
	}
	if cfg.perMember < 1 {
		return nil, fmt.Errorf("-per-member must be at least 1, not %d", cfg.perMember)
	}
	if cfg.parallel < 1 {
		return nil, fmt.Errorf("-parallel must be at least 1, not %d", cfg.parallel)
	}
	if cfg.timeout <= 0 {
		return nil, fmt.Errorf("-timeout must be positive, not %v", cfg.timeout)
	}
	if matcher != "" {
		m, err := compileMatcher(matcher)
		if err != nil {
			return nil, err
		}
		cfg.matcher = m
	}
	cfg.events = splitList(events)
	cfg.values = splitList(values)
	cfg.changed = splitList(changed)
	if _, err := exec.LookPath(cfg.command[0]); err != nil {
		return nil, fmt.Errorf("the hook command: %w", err)
	}
	return cfg, nil
}

// compileMatcher turns a settings.json matcher into a test of tool names,
// read exactly as Claude Code reads a PreToolUse matcher (see
// hook.CompileMatcher): "" and "*" match everything, "Edit|Write" and
// "Edit, Write" are exact lists, anything else is an unanchored JavaScript
// regular expression, legacy names such as Task match their current ones.
// A matcher the client would read otherwise than written, or not at all,
// is an error.
func compileMatcher(m string) (func(string) bool, error) {
	mt, err := hook.CompileMatcher(hook.EventPreToolUse, m)
	if err != nil {
		return nil, fmt.Errorf("-matcher: %w", err)
	}
	return mt.Match, nil
}

// splitList splits a comma-separated flag value, dropping empty items and
// the spaces around each item.
func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

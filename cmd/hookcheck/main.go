// Command hookcheck runs a Claude Code hook command, written in any
// language, on hook payloads — the hooktest fixtures, and calls of the
// hook's own tools given with -tool — and on tool inputs that carry
// hooktest's tricky values, in tool inputs and in tool outputs. It judges
// every answer as Claude Code reads it, and reports every run that loses or
// changes a tool_input member (or, for PostToolUse, a member or element of
// the tool_response its updatedToolOutput replaces),
// prints stdout Claude Code cannot read, gives an answer Claude Code would
// reject, mixes exit code 2 with stdout, crashes, blocks on a harmless
// value, blocks a Stop again while stop_hook_active is true, overstays
// its timeout, floods its output, or leaves processes running.
//
// Usage:
//
//	hookcheck [flags] -- COMMAND [ARGS...]
//
// Install it with
//
//	go install github.com/gohooks/hook/cmd/hookcheck@latest
//
// # What it sends
//
// Give the hook's settings.json registration: -event (default: every
// event, or PreToolUse when -matcher or -tool is given) and -matcher.
// hookcheck sends only the payloads Claude Code would run the hook on: the
// fixtures of those events whose matcher field (tool_name, source,
// trigger, …) the matcher matches, read by hook.CompileMatcher as the
// client reads it (legacy tool names included); the events without
// matcher support always run. A hook registered for one MCP tool needs a
// call of it: -tool mcp__aisle__listen_here -input '{"room":"lobby"}'
// adds a PreToolUse payload (and a PermissionRequest one when -event has
// it) calling the tool with that tool_input, the common fields those of a
// real payload. That call is the author's own: it always runs (a built-in
// fixture of the same shape gives way to it), and the report names it. An
// exact-name -matcher that no fixture matches says so and suggests -tool;
// -input alone takes the tool from such a matcher. -response adds a
// PostToolUse payload of the call with that tool_response (-event then
// defaults to PostToolUse).
//
// Each run feeds COMMAND one compact JSON object and a newline on stdin and
// then closes stdin, as Claude Code 2.1.336 does, with CLAUDE_PROJECT_DIR
// set to a fresh, empty project directory. The command runs in the current
// directory (so relative paths in COMMAND and ARGS work), without a shell:
// write -- sh -c '...' for a shell command line. Runs go -parallel at a
// time: by default one per CPU (GOMAXPROCS), since a hook run keeps a CPU
// busy starting its interpreter or binary.
//
// The runs come in two stages. First one control run per payload, as it
// is. Then the tricky runs, for the PreToolUse and PermissionRequest
// payloads: each puts one tricky value in place of one tool_input member's
// value; for the PostToolUse payloads, in place of one scalar of the
// tool_response at any depth (an MCP tool's content-block text, a string
// result as a whole; of an array longer than four, the first three
// elements and the last). By default they form a covering set, not the
// cross product:
//   - every member of every payload receives -per-member values, and every
//     tricky value is used at least once;
//   - the members the control runs copied unchanged into an updatedInput
//     (where a value can come back changed) receive every tricky value at
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
// # How it judges
//
// Claude Code parses a hook's stdout with JavaScript's JSON.parse and
// writes tool inputs with JSON.stringify, so hookcheck compares each
// updatedInput with the tool_input sent as JavaScript values (numbers as
// IEEE-754 doubles, strings as UTF-16 code units, lone surrogates
// included; see hooktest.CheckSameValue):
//   - a member missing is lost, and one with another value is changed:
//     findings;
//   - a member with the same value in other bytes (\u00e9 for é, members
//     reordered) is respelled: a note, listed but not a failure;
//   - the runs on tricky values JSON.stringify can never produce
//     (12345678901234567890, 1e400, -0, 2.50, "\/", "\u00f6", …) form a
//     tier of their own: their findings, a respelling of that value
//     included, are listed apart and fail only with -strict.
//
// A member that the hook's updatedInput gives one and the same value in
// every run of a payload, although the input held another value, is taken
// as the hook's own (a fingerprint the hook computes, a flag it forces):
// its change is not reported, and the report lists it. It is the rule
// hooktest's property run applies. -changed names more members that the
// hook means to change; -changed-output the places of a tool's result
// (member names or JSON pointers) that a PostToolUse hook means to change.
//
// Exit code 1 is reported on a payload as Claude Code sends it, and on a
// tricky value of the type the member had (a string where a string was);
// exit code 2 on such a value is reported when the payload as it is
// exits 0. A hook may refuse a number where it takes a string. An answer
// that a hook built with the library had refused ("hook: invalid answer
// …") is reported with the library's whole message.
//
// An answer whose updatedInput holds the tool_input it replaces (or,
// for PostToolUse, whose updatedToolOutput holds the tool_response), as
// Claude Code reads it, updates nothing: it is counted as no update, and
// listed as a note. Claude Code applies the rewrites of hooks that run in
// parallel last-wins, so such an answer can undo another hook's real
// rewrite; it is not a failure, since alone it does no harm.
//
// A check in which the hook answered none of the runs (exit 0 and nothing
// on stdout every time) tested nothing: it fails, and says what reaches
// the hook: -tool and -input for a tool's calls (with -response for
// PostToolUse), -fixtures for the payloads of other events (a Stop, a
// prompt).
//
// # Hooks that misbehave
//
// Each run is bounded by the hook's timeout: -timeout, in seconds as
// settings.json gives it or as a duration, or else Claude Code's default
// for the payload's event (600 s; 30 s for UserPromptSubmit and the model
// switches, 10 s for MessageDisplay, 1.5 s for SessionEnd). A run that
// outlives it is reported as a timeout, with the limit; the first timeout
// ends the check (every run to come could take the whole limit), and the
// report counts the runs not made. hookcheck keeps at most -max-output
// bytes of a run's stdout and of its stderr; a hook that writes more is
// stopped at once and reported ("stdout over N bytes"). When a run ends,
// by itself, by its timeout, or because hookcheck got SIGINT or SIGTERM,
// its whole process tree is killed: its process group, and on Linux every
// process that inherited the run's mark (HOOKTEST_RUN in the
// environment), so that a child that left with setsid is found too. The
// processes a hook left running are reported.
//
// Exit status: 0 when every run passed, 1 when a run has findings (or
// none was answered, or hookcheck was interrupted), 2 for a usage error
// (bad flags, no command, a command that cannot be found, unreadable
// fixtures, no payload to send).
//
// Flags:
//
//	-agent AGENT       claude (default) or codex: with codex, the built-in payloads (and -tool's
//	                   calls) are OpenAI Codex CLI's, and every answer is also checked against
//	                   the rules of Codex (a refused answer is a codex-rejected finding)
//	-changed LIST      tool_input members the hook means to change (comma-separated)
//	-changed-output LIST  places of a tool's result a PostToolUse hook means to change
//	                   (member names or JSON pointers, comma-separated: stdout,/0/text)
//	-event LIST        only the payloads of these events (comma-separated)
//	-fixtures DIR      the payloads of the *.json files under DIR, instead of the built-in ones
//	-full              every tricky value in every member (the full cross product)
//	-input OBJECT      the tool_input of -tool's calls
//	-json              write the report as JSON
//	-matcher MATCHER   the hook's settings.json matcher: only the payloads Claude Code runs it on
//	-max-output BYTES  what is kept of a run's stdout and of its stderr (default 1 MiB)
//	-parallel N        runs at a time (default one per CPU: GOMAXPROCS)
//	-per-member N      tricky values per member in the default set (default 3)
//	-strict            count the runs on values Claude Code never sends as failures
//	-timeout SECONDS   the hook's timeout, as settings.json gives it (30, 1.5) or a duration (90s)
//	                   (default: Claude Code's default for each event: 600s, 30s for UserPromptSubmit, …)
//	-response VALUE    the tool_response of -tool's call: adds a PostToolUse payload of it
//	-tool NAME         also send calls of the tool NAME, with -input as tool_input
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
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/protocol"
	"github.com/gohooks/hook/internal/rawjson"
)

// Exit statuses of hookcheck.
const (
	exitPass     = 0 // every run passed
	exitFindings = 1 // some run has findings
	exitUsage    = 2 // bad flags, no command, unreadable fixtures
)

func main() {
	// SIGINT and SIGTERM stop the check: every run in flight has its
	// process tree killed before hookcheck exits.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// config is what the flags ask for.
type config struct {
	command     []string
	fixturesDir string
	events      []string
	// matcher reports whether Claude Code runs a hook with -matcher on
	// an event; nil without -matcher.
	matcher     func(ev *hook.Event) bool
	matcherText string
	// tool and input are -tool and -input: a call to add payloads for.
	tool  string
	input string
	// response is -response: the tool_response of -tool's PostToolUse
	// call.
	response  string
	strict    bool
	maxOutput int64
	values    []string
	changed   []string
	// changedOutput is -changed-output: the places of a tool's result
	// the hook means to change (member names or JSON pointers).
	changedOutput []string
	full          bool
	perMember     int
	parallel      int
	timeout       time.Duration
	json          bool
	// codex is -agent codex: Codex's payloads, and every answer checked
	// against Codex's rules too.
	codex bool
}

// claudeCode is the agent hookcheck checks for unless -agent says another.
const claudeCode = "Claude Code"

// agent names the agent under test, as every message that names the
// agent must: "Claude Code", or "Codex" with -agent codex.
func (cfg *config) agent() string {
	if cfg.codex {
		return agent.Codex.String()
	}
	return claudeCode
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
			"Runs a Claude Code hook command against hook payloads and tricky tool inputs,\n"+
			"judges its answers as Claude Code reads them, and reports lost or changed\n"+
			"tool_input members, answers Claude Code would reject, exit 2 with stdout,\n"+
			"stack traces, crashes, timeouts, floods of output and processes left running.\n"+
			"A check in which the hook answered nothing fails: give -matcher and -event as\n"+
			"in settings.json, -tool NAME -input JSON for a tool no fixture calls, and\n"+
			"-response JSON for that call's result (a PostToolUse payload), and -fixtures DIR\n"+
			"for payloads of other events (a Stop, a prompt).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	cfg := &config{}
	var events, values, changed, changedOutput, matcher string
	var maxOutput int64
	fs.StringVar(&cfg.fixturesDir, "fixtures", "", "read the payloads from the `DIR`ectory's *.json files (searched recursively) instead of the built-in fixtures")
	fs.StringVar(&events, "event", "", "only the fixtures of these events (comma-separated `LIST`, e.g. PreToolUse)")
	fs.StringVar(&matcher, "matcher", "", "the hook's settings.json `MATCHER`: only the payloads Claude Code would run the hook on (e.g. \"Edit|Write\" or \"mcp__.*__listen_here\"); -event defaults to PreToolUse")
	fs.StringVar(&cfg.tool, "tool", "", "also send PreToolUse payloads (and PermissionRequest ones with -event) calling the tool `NAME`, with -input as tool_input; -event defaults to PreToolUse")
	fs.StringVar(&cfg.input, "input", "", "the tool_input of -tool's calls: one JSON `OBJECT`, e.g. '{\"room\":\"lobby\"}'")
	fs.StringVar(&cfg.response, "response", "", "the tool_response of -tool's call: one JSON `VALUE` (an MCP tool's '[{\"type\":\"text\",\"text\":\"...\"}]', an object, a string); adds a PostToolUse payload of the call, with tricky values in every place of it; -event defaults to PostToolUse")
	fs.BoolVar(&cfg.strict, "strict", false, "count the runs on tricky values Claude Code never sends (12345678901234567890, 1e400, -0, 2.50, \"\\/\", ...) as failures")
	fs.Int64Var(&maxOutput, "max-output", 1<<20, "`BYTES` kept of a run's stdout and of its stderr; a hook that writes more is stopped")
	fs.StringVar(&values, "values", "", "only the tricky values with these names (comma-separated `LIST`, e.g. \"quote,big integer\")")
	fs.StringVar(&changed, "changed", "", "tool_input members the hook means to change (comma-separated `LIST`)")
	fs.StringVar(&changedOutput, "changed-output", "", "places of a tool's result (tool_response) a PostToolUse hook means to change: member names or JSON pointers (comma-separated `LIST`, e.g. \"stdout,/0/text\")")
	fs.BoolVar(&cfg.full, "full", false, "put every tricky value into every member (the full cross product)")
	fs.IntVar(&cfg.perMember, "per-member", 3, "tricky values each member receives in the default covering set")
	fs.IntVar(&cfg.parallel, "parallel", defaultParallel(), "number of runs at a time (default: one per CPU)")
	fs.Var(timeoutFlag{&cfg.timeout}, "timeout", "the hook's timeout, as settings.json gives it: `SECONDS` (30, 1.5) or a duration (90s, 2m); a run's process tree is killed after it, and the first timeout ends the check (default: Claude Code's default for each event, 600s; 30s for UserPromptSubmit)")
	fs.BoolVar(&cfg.json, "json", false, "write the report as JSON")
	agentName := fs.String("agent", "claude", "the `AGENT` that runs the hook: claude (Claude Code) or codex (OpenAI Codex CLI: its payloads, and every answer also checked against Codex's rules)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch *agentName {
	case "claude", "claude-code":
	case "codex":
		cfg.codex = true
	default:
		return nil, fmt.Errorf("-agent must be claude or codex, not %q", *agentName)
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
	if maxOutput < 1 {
		return nil, fmt.Errorf("-max-output must be at least 1, not %d", maxOutput)
	}
	cfg.maxOutput = maxOutput
	cfg.events = splitList(events)
	if len(cfg.events) == 0 && cfg.response != "" {
		// A call's result goes to PostToolUse hooks.
		cfg.events = []string{hook.EventPostToolUse}
	}
	if len(cfg.events) == 0 && (matcher != "" || cfg.tool != "") {
		// A matcher is registered for one event; the tool matchers'
		// usual one is PreToolUse.
		cfg.events = []string{hook.EventPreToolUse}
	}
	if matcher != "" {
		// One matcher, read as Claude Code reads it for each event.
		byEvent := map[string]hook.Matcher{}
		for _, ev := range cfg.events {
			m, err := compileMatcher(ev, matcher)
			if err != nil {
				// What the client would match otherwise than written, or
				// not at all, is a mistake to fix, not a selection to guess.
				return nil, fmt.Errorf("-matcher: %w", err)
			}
			byEvent[ev] = m
		}
		cfg.matcher = func(ev *hook.Event) bool {
			m, ok := byEvent[ev.HookEventName]
			return ok && m.MatchEvent(ev)
		}
		cfg.matcherText = matcher
	}
	if cfg.input != "" && cfg.tool == "" {
		if names := exactNames(hook.EventPreToolUse, matcher); len(names) == 1 {
			cfg.tool = names[0]
		} else {
			return nil, errors.New("-input needs -tool NAME: the tool whose calls take it")
		}
	}
	if cfg.tool != "" {
		if cfg.input == "" {
			return nil, fmt.Errorf("-tool %s needs -input: the tool_input JSON object of a call, e.g. -input '{\"room\":\"lobby\"}'", cfg.tool)
		}
		if err := checkToolInput(cfg.tool, cfg.input); err != nil {
			return nil, err
		}
		post := slices.Contains(cfg.events, hook.EventPostToolUse)
		if post && cfg.response == "" && !slices.Contains(cfg.events, hook.EventPreToolUse) && !slices.Contains(cfg.events, hook.EventPermissionRequest) {
			return nil, fmt.Errorf("-tool %s with -event PostToolUse needs -response: the tool_response of the call, e.g. -response '[{\"type\":\"text\",\"text\":\"joined\"}]'", cfg.tool)
		}
		if !post && !slices.Contains(cfg.events, hook.EventPreToolUse) && !slices.Contains(cfg.events, hook.EventPermissionRequest) {
			return nil, fmt.Errorf("-tool sends PreToolUse and PermissionRequest payloads (and PostToolUse with -response); -event %s has none of them", strings.Join(cfg.events, ","))
		}
		if cfg.matcher != nil && !slices.ContainsFunc(cfg.events, func(e string) bool {
			m, _ := compileMatcher(e, matcher)
			return protocol.MatcherOf(e) == "tool_name" && m.Match(cfg.tool)
		}) {
			return nil, fmt.Errorf("-matcher %q does not match -tool %s: %s would not run the hook on its calls", matcher, cfg.tool, cfg.agent())
		}
	}
	if cfg.response != "" {
		if cfg.tool == "" {
			return nil, errors.New("-response needs -tool NAME and -input: the call whose result it is")
		}
		if valid, _ := rawjson.Valid([]byte(cfg.response)); !valid {
			return nil, fmt.Errorf("-response: not one JSON value: %s", clip(cfg.response, 80))
		}
		if !slices.Contains(cfg.events, hook.EventPostToolUse) {
			return nil, fmt.Errorf("-response gives a PostToolUse payload; -event %s has no PostToolUse", strings.Join(cfg.events, ","))
		}
	}
	cfg.values = splitList(values)
	cfg.changed = splitList(changed)
	cfg.changedOutput = splitList(changedOutput)
	if _, err := exec.LookPath(cfg.command[0]); err != nil {
		return nil, fmt.Errorf("the hook command: %w", err)
	}
	return cfg, nil
}

// defaultParallel is the default of -parallel: one run per CPU that
// hookcheck may use (GOMAXPROCS, which Go derives from the CPU count and
// the container's CPU limit). A hook run is mostly an interpreter or a
// binary starting, which keeps a CPU busy: more runs at a time than CPUs
// make every run slower, and a loaded machine slower still.
func defaultParallel() int { return max(runtime.GOMAXPROCS(0), 1) }

// compileMatcher reads the settings.json matcher m of a hook registered
// for event as Claude Code reads it: hook.CompileMatcher, the one
// compiler that routing, hookcheck and hookctl share.
func compileMatcher(event, m string) (hook.Matcher, error) {
	return hook.CompileMatcher(event, m)
}

// exactNames returns the names of the matcher m when it is a list of
// exact names for event (only letters, digits, '_', '-', spaces, ',' and
// '|'; for FileChanged and StopFailure only letters, digits, '_' and '|'),
// or nil. hookcheck uses it only to suggest -tool; matching is
// compileMatcher's.
func exactNames(event, m string) []string {
	list, seps := exactList, "|,"
	if event == hook.EventFileChanged || event == hook.EventStopFailure {
		list, seps = narrowList, "|"
	}
	if m == "" || m == "*" || !list.MatchString(m) {
		return nil
	}
	names := strings.FieldsFunc(m, func(r rune) bool { return strings.ContainsRune(seps, r) })
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	return names
}

var (
	exactList  = regexp.MustCompile(`^[A-Za-z0-9_\- ,|]+$`)
	narrowList = regexp.MustCompile(`^[A-Za-z0-9_|]+$`)
)

// checkToolInput reports a -input that is not one JSON object.
func checkToolInput(tool, input string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("-input: %v", strings.TrimPrefix(fmt.Sprint(r), "hooktest: NewPreToolUse: "))
		}
	}()
	hooktest.NewPreToolUse(tool, input)
	return nil
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

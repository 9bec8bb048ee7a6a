package hooktest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/verdict"
)

// AddedMember is the name under which the property run adds each tricky
// value to tool_input as a new member.
const AddedMember = "hooktest_added"

// Options configures a property run ([CheckHandler], [CheckCommand],
// [RunProperty]). A nil *Options is the zero Options: every PreToolUse
// and PermissionRequest fixture, one PostToolUse fixture of each shape,
// every tricky value, one case at a time.
type Options struct {
	// Fixtures replaces the fixtures of the run, which are by default
	// (nil) every fixture of [Fixtures] that is a PreToolUse or
	// PermissionRequest payload with a tool_input object, and one
	// PostToolUse payload with a tool_response of each shape (tool and
	// places in its result: the recorded fixtures repeat many). Fixtures
	// of other events, or without a tool_input object (a tool_response,
	// for PostToolUse), are skipped. Add [CodexFixtures] for the payloads
	// of Codex (its shell output is a string). PostToolUseFailure is not
	// run: its answer cannot replace anything. A non-nil empty slice
	// leaves only the calls of Tools.
	Fixtures []Fixture

	// Tools adds a PreToolUse and a PermissionRequest payload for each
	// call (built with [NewPreToolUse] and [NewPermissionRequest]: the
	// common fields of a real payload) to the fixtures of the run, so
	// that the tricky values go into that tool's members, and, for a
	// call with a Response, a PostToolUse payload (built with
	// [NewPostToolUse]), so that they go into its result. Name every tool
	// the hook handles that the fixtures do not call — an MCP tool of
	// your own above all: a run whose hook answers no payload fails. The
	// run panics, as the builders do, on a call whose Name is empty, whose
	// Input is not one JSON object, or whose Response is set and not one
	// JSON value.
	Tools []Tool

	// Values replaces the tricky values of the run, by default (nil)
	// [TrickyValues].
	Values []Tricky

	// Changes names tool_input members the hook changes on purpose (a
	// hook that prefixes "command", one that sets a fingerprint): their
	// new values are not checked, but they must still be there. A member
	// the hook sets to one value whatever the model sent must be named
	// here: a run cannot tell it from the seed bug's effect (the model's
	// room replaced by "lobby"), so without it every run that changed the
	// member fails, and says that the hook sets it to one value.
	Changes []string

	// Removes names tool_input members the hook drops on purpose (with
	// [hook.Remove]); they are not checked at all.
	Removes []string

	// OutputChanges names the places of a tool's result (tool_response)
	// that a PostToolUse hook changes on purpose (a redaction hook that
	// rewrites "stdout", one that shortens an MCP tool's text): their new
	// values are not checked, nor anything below them, but they must
	// still be there. Each is a top-level member's name ("stdout") or a
	// JSON pointer into the result ("/file/content", "/0/text" for the
	// text of an MCP tool's first content block; "" for a result that is
	// one string). As with Changes, a member the hook sets to one value
	// whatever the tool returned must be named here.
	OutputChanges []string

	// OutputRemoves names the places of a tool's result that a
	// PostToolUse hook drops on purpose, as OutputChanges spells them;
	// they are not checked at all.
	OutputRemoves []string

	// Parallel runs up to that many cases at a time (0 or 1: one). Use it
	// for programs run with [CheckCommand]; a handler given to
	// [CheckHandler] must then be safe for concurrent use.
	Parallel int

	// MaxReported is how many failures [CheckHandler] and [CheckCommand]
	// report one by one (0: 10; negative: none); the rest are counted,
	// grouped by rule, in one more message.
	MaxReported int

	// Strict makes the runs on tricky values that Claude Code can never
	// send (see [Tricky.Sendable]: 12345678901234567890, 1e400, -0,
	// 2.50, "\/", …) count: without it their failures are listed in
	// [Report.StrictFindings] and logged, but do not fail the run. A hook
	// that copies what it does not change, as the library does, passes
	// strict runs.
	Strict bool

	// Exact judges every updatedInput byte for byte, as [CheckPreserved]
	// does, instead of as Claude Code reads it (see [CheckSameValue]): a
	// member respelled (\u00e9 for é, 2.5 for 2.50) or moved fails too,
	// and so do the runs Strict counts. It is the promise of a hook built
	// with this library, and [CheckHandler] always judges so.
	Exact bool
}

// Tool is a call of a tool for [Options.Tools].
type Tool struct {
	// Name is the tool's name, e.g. "mcp__aisle__listen_here".
	Name string
	// Input is the call's tool_input, one JSON object.
	Input string
	// Response is the call's result, the tool_response of a PostToolUse
	// payload: any one JSON value (an MCP tool's content blocks,
	// [{"type":"text","text":"…"}], an object, a string). Set, the run
	// also sends a PostToolUse payload of the call, with tricky values in
	// every place of the result; empty, it sends none.
	Response string
}

// config is Options with the defaults applied.
type config struct {
	fixtures []Fixture
	extra    []Fixture // from Tools
	values   []Tricky
	changes  []string
	removes  []string
	// outChanges and outRemoves are Options.OutputChanges and
	// OutputRemoves.
	outChanges, outRemoves []string
	parallel               int
	report                 int
	strict                 bool
	exact                  bool
}

// Report is the outcome of a property run.
type Report struct {
	// Fixtures is the number of fixtures run.
	Fixtures int
	// Cases is the number of times the hook ran.
	Cases int
	// Answered is the number of runs in which the hook did something
	// Claude Code acts on: it printed on stdout or exited with a code
	// other than 0. Silent is the number of the others (exit 0, nothing
	// on stdout); a run that could not start is in neither. A run in
	// which no case was answered fails: it tested nothing.
	Answered, Silent int
	// Updates is the number of runs whose answer carried an updatedInput
	// that changes the tool_input it was given (or, for PostToolUse, an
	// updatedToolOutput or updatedMCPToolOutput that changes the
	// tool_response). An updatedInput that
	// holds that tool_input — the same bytes, or, unless [Options.Exact], the
	// same value as Claude Code reads it — updates nothing and is counted
	// in NoOpUpdates instead (it is still checked like any other).
	Updates int
	// NoOpUpdates is the number of runs whose answer carried an
	// updatedInput that holds the tool_input unchanged. Claude Code
	// applies it all the same, and applies the rewrites of hooks that run
	// in parallel last-wins, so such an answer can undo another hook's
	// real rewrite: a hook should answer without updatedInput when it
	// changes nothing. It is not a failure.
	NoOpUpdates int
	// Blocked is the number of runs that blocked or denied the call: exit
	// code 2, or a deny decision.
	Blocked int
	// FailedOpen lists the runs after which Claude Code goes on with the
	// call as if there were no hook (see [Recorder.FailsOpen]: a kill or
	// a timeout, an exit code other than 0 and 2, an answer it cannot
	// read or rejects, or a program that did not run), each as
	// [Failure.Where] describes it, with how it ended. Not all of them
	// are failures (a typed hook may exit 1 on a number where it wants a
	// string), but each is a call the hook did not guard.
	FailedOpen []string
	// Failures lists the runs that broke a rule, in run order; with a
	// run that tested nothing, it ends with one Failure that says so
	// (Fixture "", Err a [*Violation] of [RuleAnswers]).
	Failures []*Failure
	// StrictFindings lists the runs on tricky values Claude Code can never
	// send that broke a rule because of the value: the member that held it
	// changed or respelled, or a result broken as a whole (a member lost,
	// or changed elsewhere, is a failure whatever the value). They are
	// not failures unless [Options.Strict] (or [Options.Exact]) is set, and then are in
	// Failures instead.
	StrictFindings []*Failure
	// Notes lists the runs whose updatedInput respelled a member: the same
	// value as Claude Code reads it, other bytes (Err holds
	// [*Violation]s of [NoteRespelled]; with [Options.Exact] they are
	// failures instead), and the runs whose exit-2 reason ends like a
	// crash ([NoteCrashReason], see [Recorder.Notes]). They are not
	// failures.
	Notes []*Failure
}

// Err returns the failures joined with errors.Join, or nil.
func (r *Report) Err() error {
	errs := make([]error, len(r.Failures))
	for i, f := range r.Failures {
		errs[i] = f
	}
	return errors.Join(errs...)
}

// Failure is one run of a property run that broke a rule.
type Failure struct {
	// Fixture is the name of the fixture the payload was built from.
	Fixture string
	// Pointer is the JSON pointer, in the payload, of the place that held
	// the tricky value: "/tool_input/" + Member, or, for a PostToolUse
	// payload, a place in tool_response at any depth
	// ("/tool_response/stdout", "/tool_response/0/text", "/tool_response"
	// for a result that is one string), or "/tool_response" with the
	// unusual names added to every object of it; "" for the unchanged
	// fixture and the run with unusual names added to tool_input.
	Pointer string
	// Member is the tool_input member that held the tricky value (its
	// JSON pointer is "/tool_input/" + Member, escaped); "" for the run
	// on the unchanged fixture, for the run with members of unusual
	// names added (Added set, Value "unusual member names"), and for the
	// runs of a PostToolUse payload (see Pointer).
	Member string
	// Added is true when the value was added as the new member
	// [AddedMember] rather than put in place of an existing member's
	// value.
	Added bool
	// Value is the name of the tricky value ("" for the unchanged
	// fixture, "unusual member names" for the run with members of
	// unusual names added).
	Value string
	// Strict is true when Value is one Claude Code can never send (see
	// [Tricky.Sendable]).
	Strict bool
	// Result is the hook's result; nil for the failure of a run that
	// tested nothing.
	Result *Recorder
	// Err holds the broken rules: [*Violation]s joined with errors.Join.
	Err error
}

// Where describes the case: the fixture, and the value and where it was.
func (f *Failure) Where() string {
	if f.Fixture == "" {
		return "the property run"
	}
	if f.Value == "" {
		return f.Fixture + " (unchanged)"
	}
	if f.Value == verdict.NamesCase {
		where := "/tool_input"
		if strings.HasPrefix(f.Pointer, "/tool_response") {
			where = "every object of /tool_response"
		}
		return f.Fixture + " with members of unusual names added to " + where + " (seat-count, a.b, case twins, …)"
	}
	how := "in"
	if f.Added {
		how = "added as"
	}
	ptr := f.Pointer
	if ptr == "" {
		ptr = "/tool_input/" + rawjson.PointerToken(f.Member)
	}
	return fmt.Sprintf("%s with %s %s %s", f.Fixture, f.Value, how, ptr)
}

// Error returns the case and the broken rules, one per line, e.g.
//
//	pretooluse-bash with big integer in /tool_input/timeout:
//		/hookSpecificOutput/updatedInput/timeout: member rewritten from 12345678901234567890 to 12345678901234567000 (a hook must keep every tool_input member it did not change)
func (f *Failure) Error() string {
	var b strings.Builder
	b.WriteString(f.Where())
	b.WriteString(":")
	for _, line := range strings.Split(f.Err.Error(), "\n") {
		b.WriteString("\n\t")
		b.WriteString(line)
	}
	return b.String()
}

// CheckHandler runs the property run on h in-process (see [RunProperty])
// and reports each failure with t.Errorf, the first ones one by one (see
// [Options.MaxReported]) and the rest in a summary. It judges byte for byte, as
// [Options.Exact] does: a handler built with this library keeps the bytes of what
// it does not change. It logs the counts of the report with t.Logf, and
// returns the report.
func CheckHandler(t testing.TB, h hook.Handler, opts *Options) *Report {
	t.Helper()
	exact := Options{}
	if opts != nil {
		exact = *opts
	}
	exact.Exact = true
	r := RunProperty(func(payload []byte) (*Recorder, error) { return Record(h, payload), nil }, &exact)
	reportTo(t, r, &exact)
	return r
}

// CheckCommand runs the property run on the hook program c (see
// [RunProperty] and [Command.Run]) and reports failures as
// [CheckHandler] does; a run that cannot start or times out fails the
// test. It judges as Claude Code reads the answers, unless [Options.Exact] or
// [Options.Strict] is set. Each run gets ctx. A program takes milliseconds per
// run where a handler takes microseconds: consider [Options.Values] with a few
// values, and [Options.Parallel].
func CheckCommand(t testing.TB, ctx context.Context, c *Command, opts *Options) *Report {
	t.Helper()
	r := RunProperty(func(payload []byte) (*Recorder, error) { return c.Run(ctx, payload) }, opts)
	reportTo(t, r, opts)
	return r
}

func reportTo(t testing.TB, r *Report, opts *Options) {
	t.Helper()
	cfg := newConfig(opts)
	t.Logf("hooktest: %d fixtures, %d cases: %d answered (%d updated, %d blocked, %d failed open), %d silent", r.Fixtures, r.Cases, r.Answered, r.Updates, r.Blocked, len(r.FailedOpen), r.Silent)
	if n := len(r.FailedOpen); n > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "hooktest: %d cases failed open (Claude Code goes on with the call as if there were no hook):", n)
		for i, w := range r.FailedOpen {
			if i == 5 {
				fmt.Fprintf(&b, "\n\t… and %d more", n-i)
				break
			}
			b.WriteString("\n\t" + w)
		}
		t.Logf("%s", b.String())
	}
	if r.NoOpUpdates > 0 {
		t.Logf("hooktest: %d answers carried an updatedInput that holds the tool_input unchanged, counted as no update; "+
			"Claude Code applies parallel hooks' rewrites last-wins, so such an answer can undo another hook's real rewrite: answer without updatedInput when nothing changes", r.NoOpUpdates)
	}
	rest := map[string]int{}
	for i, f := range r.Failures {
		if i < cfg.report {
			t.Errorf("%v", f)
			continue
		}
		for _, v := range violations(f.Err) {
			rest[v.Rule]++
		}
	}
	if n := len(r.Failures) - cfg.report; n > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "%d more failures of %d cases:", n, r.Cases)
		for _, rule := range slices.Sorted(maps.Keys(rest)) {
			fmt.Fprintf(&b, "\n\t%d × %s", rest[rule], rule)
		}
		t.Errorf("%s", b.String())
	}
	if n := len(r.StrictFindings); n > 0 {
		t.Logf("hooktest: %d cases on values Claude Code can never send broke a rule (they fail only with Options.Strict); the first:\n%v", n, r.StrictFindings[0])
	}
	if n := len(r.Notes); n > 0 {
		t.Logf("hooktest: %d cases have notes (a member respelled: the same value for Claude Code, other bytes; or an exit-2 reason that ends like a crash); the first:\n%v", n, r.Notes[0])
	}
}

// violations returns the Violations in err.
func violations(err error) []*Violation {
	var out []*Violation
	var walk func(error)
	walk = func(err error) {
		if v, ok := err.(*Violation); ok {
			out = append(out, v)
			return
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
			return
		}
		out = append(out, &Violation{Rule: "error", Detail: err.Error()})
	}
	if err != nil {
		walk(err)
	}
	return out
}

func newConfig(o *Options) *config {
	if o == nil {
		o = &Options{}
	}
	c := &config{
		fixtures:   o.Fixtures,
		values:     o.Values,
		changes:    o.Changes,
		removes:    o.Removes,
		outChanges: o.OutputChanges,
		outRemoves: o.OutputRemoves,
		parallel:   max(o.Parallel, 1),
		report:     o.MaxReported,
		strict:     o.Strict || o.Exact,
		exact:      o.Exact,
	}
	switch {
	case c.report == 0:
		c.report = 10
	case c.report < 0:
		c.report = 0
	}
	for _, t := range o.Tools {
		c.extra = append(c.extra,
			Fixture{Name: "pretooluse " + t.Name, Event: hook.EventPreToolUse, JSON: NewPreToolUse(t.Name, t.Input)},
			Fixture{Name: "permissionrequest " + t.Name, Event: hook.EventPermissionRequest, JSON: NewPermissionRequest(t.Name, t.Input)})
		if t.Response != "" {
			c.extra = append(c.extra, Fixture{Name: "posttooluse " + t.Name, Event: hook.EventPostToolUse, JSON: NewPostToolUse(t.Name, t.Input, t.Response)})
		}
	}
	return c
}

// RunProperty is the property run behind [CheckHandler] and
// [CheckCommand]; run runs the hook on one payload. For each fixture (see
// [Options.Fixtures] and [Options.Tools]) it runs the hook on the unchanged payload,
// then, for each tricky value (see [Options.Values]), once with the value in
// place of each tool_input member's value and once with the value added
// as the new member [AddedMember], and once more with members of unusual
// names added (a dash as in "seat-count", a dot, a space, non-ASCII
// letters, capitals, digits only, escapes, a long name, and the twin in
// other case of each member's name, "Room" for "room"), which a hook that
// keeps only the names it knows loses. Every result is checked with
// [CheckAnswer]; a run on an unchanged fixture must also not fail (exit
// code 1), nor, for an MCP tool, whose server's schema may take any name,
// the run with the unusual names. Every updatedInput the hook answers (except with exit code 2,
// when Claude Code ignores stdout) must then keep every member of the
// tool_input the hook was given (tricky value included) — the same value
// as Claude Code reads it (see [CheckSameValue]), or with [Options.Exact] the same
// bytes in the same order — except:
//   - the members named with [Options.Changes] (values not checked) or [Options.Removes]
//     (not checked at all), and those the handler's answer lists in
//     Removed (see [Recorder.Removed]).
//
// A member the hook sets to one value whatever the model sent (in every
// answer of the fixture's runs that holds it, one value, where the
// inputs held several) is the seed bug's effect unless named in
// [Options.Changes]: each run that changed it fails, saying so.
// A run whose hook answers without updatedInput, or fails with exit code
// 1 on a tricky value (a typed hook may refuse a number where it wants a
// string), passes if its result breaks no rule. The runs on values Claude
// Code can never send form a tier of their own (see [Options.Strict]). A run in
// which the hook answered no case at all, or that had no fixture with a
// tool_input object, ends with a failure of [RuleAnswers]. Cases run in
// fixture order, then member order, then value order; with [Options.Parallel]
// they run concurrently but the report keeps that order. RunProperty
// returns an error in the report (as a Failure) when run does.
//
// A PostToolUse fixture's tricky values go into its tool_response, whose
// whole an answer's updatedToolOutput (or updatedMCPToolOutput) replaces:
// in place of every scalar at every depth (of an array longer than four,
// the first three elements and the last; a string result as a whole, with
// string values only), added as [AddedMember] to an object result, and
// with the unusual names added to every object in it. The rewrite must
// keep every member and array element of the result it was given, as for
// updatedInput, except the places named with [Options.OutputChanges]
// (values not checked) and [Options.OutputRemoves] (not checked at all);
// its failures break [RuleKeepOutput]. PostToolUseFailure fixtures are not
// run: their answer replaces nothing.
func RunProperty(run func(payload []byte) (*Recorder, error), opts *Options) *Report {
	cfg := newConfig(opts)
	fixtures := cfg.fixtures
	if fixtures == nil {
		fixtures = Fixtures()
	}
	fixtures = append(slices.Clip(fixtures), cfg.extra...)
	if cfg.values == nil {
		cfg.values = TrickyValues()
	}
	rep := &Report{}
	var tools []string
	var inputs, outputs bool
	shapes := map[string]bool{}
	for i, f := range fixtures {
		if f.Event == hook.EventPostToolUse {
			resp, ok := Field(f.JSON, "tool_response")
			if !ok {
				continue
			}
			if cfg.fixtures == nil && i < len(fixtures)-len(cfg.extra) {
				k := outputShape(f, resp)
				if shapes[k] {
					continue
				}
				shapes[k] = true
			}
			if tn, ok := Field(f.JSON, "tool_name"); ok {
				if s, ok := decodeString(tn); ok && !slices.Contains(tools, s) {
					tools = append(tools, s)
				}
			}
			rep.Fixtures++
			outputs = true
			runOutputFixture(rep, cfg, run, f, resp)
			continue
		}
		if f.Event != hook.EventPreToolUse && f.Event != hook.EventPermissionRequest {
			continue
		}
		ti, ok := Field(f.JSON, "tool_input")
		if !ok || ti.Kind() != '{' {
			continue
		}
		tms, err := rawjson.Members(ti)
		if err != nil {
			continue
		}
		if tn, ok := Field(f.JSON, "tool_name"); ok {
			if s, ok := decodeString(tn); ok && !slices.Contains(tools, s) {
				tools = append(tools, s)
			}
		}
		rep.Fixtures++
		inputs = true
		runFixture(rep, cfg, run, f, ti, tms)
	}
	if rep.Answered == 0 {
		rep.Failures = append(rep.Failures, &Failure{Err: &Violation{Rule: RuleAnswers, Detail: vacuous(rep, tools, inputs, outputs)}})
	}
	return rep
}

// vacuous explains a run that tested nothing.
func vacuous(rep *Report, tools []string, inputs, outputs bool) string {
	how := toolsHint(inputs, outputs)
	if rep.Fixtures == 0 {
		return errNoFixture.Error() + "; " + how
	}
	shown := tools
	more := ""
	if len(shown) > 8 {
		shown, more = shown[:8], fmt.Sprintf(" and %d more", len(tools)-8)
	}
	return fmt.Sprintf("the hook answered none of the %d cases (exit 0 and nothing on stdout for every payload, of the tools %s%s), so nothing was tested; %s",
		rep.Cases, strings.Join(shown, ", "), more, how)
}

// propertyCase is one run of a property run.
type propertyCase struct {
	member  string
	held    string         // for a PostToolUse case: the pointer in resp of the tricky value
	resp    jsontext.Value // for a PostToolUse case: the tool_response sent
	added   bool
	names   bool // the case with members of unusual names added
	value   Tricky
	strict  bool // value is one Claude Code never sends
	payload jsontext.Value
	ti      jsontext.Value
	result  *Recorder
	err     error
}

// sent returns what the case sent for the hook to update: the
// tool_response of a PostToolUse case, else the tool_input.
func (c *propertyCase) sent() jsontext.Value {
	if c.resp != nil {
		return c.resp
	}
	return c.ti
}

// updated returns the updatedInput Claude Code would act on (for a
// PostToolUse case, the updatedToolOutput or updatedMCPToolOutput), or
// nil.
func (c *propertyCase) updated() jsontext.Value {
	if c.result == nil || c.result.Code == hook.ExitBlock {
		return nil
	}
	if c.resp != nil {
		return c.result.UpdatedToolOutput
	}
	return c.result.UpdatedInput
}

// runFixture runs every case of one fixture, then judges them.
func runFixture(rep *Report, cfg *config, run func([]byte) (*Recorder, error), f Fixture, ti jsontext.Value, tms []rawjson.Member) {
	cases := []*propertyCase{{payload: f.JSON, ti: ti}}
	targets := make([]string, 0, len(tms)+1)
	for _, m := range tms {
		targets = append(targets, m.Key)
	}
	targets = append(targets, AddedMember)
	sendable := make([]bool, len(cfg.values))
	for i, v := range cfg.values {
		sendable[i] = v.Sendable()
	}
	for i, name := range targets {
		for j, v := range cfg.values {
			nti, err := hook.Merge(ti, rawObject(name, v.JSON))
			if err != nil {
				continue // a tricky value that is not valid JSON
			}
			cases = append(cases, &propertyCase{
				member:  name,
				added:   i == len(tms),
				value:   v,
				strict:  !sendable[j],
				ti:      nti,
				payload: WithField(f.JSON, "tool_input", nti),
			})
		}
	}
	names := make([]string, len(tms))
	for i, m := range tms {
		names[i] = m.Key
	}
	odd := verdict.OddMembers(names)
	nti := jsontext.Value(rawjson.AppendObject(nil, append(slices.Clip(tms), odd...)))
	cases = append(cases, &propertyCase{
		added:   true,
		names:   true,
		value:   Tricky{Name: verdict.NamesCase},
		ti:      nti,
		payload: WithField(f.JSON, "tool_input", nti),
	})
	runAndJudge(rep, cfg, run, f, cases)
}

// runAndJudge runs the cases of one fixture, then judges each against the
// members the hook sets to one value over all of them, and records the
// verdicts in rep. The first case (the fixture as it is) and the case
// with odd member names for a tool of open schema must run.
func runAndJudge(rep *Report, cfg *config, run func([]byte) (*Recorder, error), f Fixture, cases []*propertyCase) {
	runCases(cases, cfg.parallel, run)

	runs := make([]verdict.Run, len(cases))
	for i, c := range cases {
		runs[i] = verdict.Run{In: c.sent(), Out: c.updated()}
	}
	consts := verdict.Constants(runs)
	tool := ""
	if tn, ok := Field(f.JSON, "tool_name"); ok {
		tool, _ = decodeString(tn)
	}
	for i, c := range cases {
		rep.Cases++
		count(rep, c.result, c.sent(), cfg.exact)
		mustRun := i == 0 || c.names && verdict.OpenSchema(tool)
		errs, notes := judge(c, cfg, consts, mustRun, c.strict)
		record(rep, cfg, f, c, errs, notes)
	}
}

// splitTier splits the broken rules of a case on a value Claude Code never
// sends, held at the JSON pointer held (in the tool_input, or the
// tool_response): a member lost, or changed elsewhere than where the value
// is, does not depend on the value and stays a failure; the rest (the
// value's member changed or respelled, and whatever concerns the run as a
// whole) is the strict tier.
func splitTier(errs error, held string) (normal, strict error) {
	var ns, ss []error
	for _, v := range violations(errs) {
		me, member := v.Err.(*MemberError)
		member = member && (v.Rule == RuleKeep || v.Rule == RuleKeepOutput)
		if member && !verdict.InStrictTier(true, problemOf(me), me.Pointer, held) {
			ns = append(ns, v)
		} else {
			ss = append(ss, v)
		}
	}
	return errors.Join(ns...), errors.Join(ss...)
}

// count adds the result of a case on the tool input ti to the counts of
// the report (verdict.Counts, the counting hookcheck does too); exact
// counts only the same bytes as a no-op update, not the same value.
func count(rep *Report, r *Recorder, ti jsontext.Value, exact bool) {
	if r == nil {
		return
	}
	upd := r.UpdatedInput
	if r.Event == hook.EventPostToolUse {
		upd = r.UpdatedToolOutput
	}
	c := verdict.Counts{Answered: rep.Answered, Silent: rep.Silent, Updated: rep.Updates, Blocked: rep.Blocked, NoOps: rep.NoOpUpdates}
	c.Add(r.Code, len(trimJS(r.Stdout)) > 0, verdict.Rewrite(ti, upd, !exact), r.PermissionDecision == hook.Deny, false)
	rep.Answered, rep.Silent, rep.Updates, rep.Blocked, rep.NoOpUpdates = c.Answered, c.Silent, c.Updated, c.Blocked, c.NoOps
}

// endedHow says how a run that failed open ended.
func endedHow(c *propertyCase) string {
	r := c.result
	switch {
	case r == nil:
		if c.err != nil {
			return "did not run: " + c.err.Error()
		}
		return "did not run"
	case r.Code < 0:
		return "killed (by a signal or a timeout)"
	case r.Code != 0:
		if l := clipLine(r.Stderr); l != "" {
			return fmt.Sprintf("exit code %d: %s", r.Code, l)
		}
		return fmt.Sprintf("exit code %d", r.Code)
	}
	for _, e := range r.Problems {
		if v, ok := e.(*Violation); ok && (v.Rule == RuleStdout || v.Rule == RuleNull || v.Rule == RuleEventName) {
			return "answer ignored: " + v.Error()
		}
	}
	return "answer ignored"
}

// runCases runs the cases on up to n goroutines.
func runCases(cases []*propertyCase, n int, run func([]byte) (*Recorder, error)) {
	if n <= 1 {
		for _, c := range cases {
			c.result, c.err = run(c.payload)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan *propertyCase)
	for range n {
		wg.Go(func() {
			for c := range next {
				c.result, c.err = run(c.payload)
			}
		})
	}
	for _, c := range cases {
		next <- c
	}
	close(next)
	wg.Wait()
}

// judge checks one case's result: the broken rules, and the respelled
// members (notes; failures with Exact). In a case on a value Claude Code
// never sends (strict), the member holding it breaks the rule when it is
// respelled too: the strict tier asks for the value as it was written.
func judge(c *propertyCase, cfg *config, consts []verdict.Constant, isBase, strict bool) (errs, notes error) {
	if c.result == nil {
		if c.err == nil {
			c.err = errors.New("no result")
		}
		return &Violation{Rule: RuleRuns, Detail: c.err.Error(), Err: c.err}, nil
	}
	chk, err := newChecker(c.payload)
	if err != nil {
		return err, nil
	}
	chk.noKeep = true
	chk.check(c.result.Code, c.result.Stdout, c.result.Stderr)
	if isBase && c.result.Code == hook.ExitError && !slices.ContainsFunc(chk.vs, func(v *Violation) bool { return v.Rule == RuleRefused }) {
		what := "a payload Claude Code sends"
		if c.names {
			what = "a call of an MCP tool with members of unusual names, which its server's schema may take"
		}
		chk.add(RuleFails, "", "exit code 1 on %s: %s", what, clipLine(c.result.Stderr))
	}
	ns := append([]error(nil), c.result.Notes...)
	if c.resp != nil {
		ns = append(ns, judgeOutput(chk, c, cfg, consts)...)
	} else if upd := c.updated(); upd != nil && upd.Kind() == '{' {
		ptr := updatedInputPointer(c.result)
		skip := slices.Concat(cfg.changes, cfg.removes, c.result.Removed)
		if cfg.exact {
			ims, err1 := rawjson.Members(c.ti)
			oms, err2 := rawjson.Members(upd)
			if err1 == nil && err2 == nil {
				for _, me := range checkMembers(ims, oms, skip) {
					chk.vs = append(chk.vs, keepViolation(ptr, me, c.member, consts))
				}
			}
		} else if ds, err := verdict.Compare(c.ti, upd, skip); err == nil {
			for _, d := range ds {
				me := memberError(d)
				if d.Problem == verdict.Respelled && (!strict || !verdict.InStrictTier(true, d.Problem, d.Pointer, "/"+rawjson.PointerToken(c.member))) {
					ns = append(ns, &Violation{Rule: NoteRespelled, Pointer: ptr + me.Pointer, Detail: me.detail(), Err: me})
					continue
				}
				chk.vs = append(chk.vs, keepViolation(ptr, me, c.member, consts))
			}
		}
	}
	if c.err != nil {
		chk.vs = append(chk.vs, &Violation{Rule: RuleRuns, Detail: c.err.Error(), Err: c.err})
	}
	return chk.err(), errors.Join(ns...)
}

// keepViolation is the failure of a member the hook did not keep, at ptr
// (the updatedInput's pointer) + me.Pointer, in a case whose tricky value
// is in member ("" for the unchanged fixture), given the members the hook
// sets to one value whatever the model sent (consts). A member of consts
// that changed lost the model's value to the hook's: the failure says so,
// and names the option that declares a member the hook owns. A member
// changed where it did not hold the tricky value is a change the hook
// made, not a value it mangled: the failure names the option too.
func keepViolation(ptr string, me *MemberError, member string, consts []verdict.Constant) *Violation {
	detail := me.detail()
	name := topMember(me.Pointer)
	if k, ok := verdict.FindConstant(consts, name); ok && me.Pointer == "/"+rawjson.PointerToken(name) && me.Problem != ProblemLost && me.Problem != ProblemMoved {
		detail += fmt.Sprintf("; the hook sets it to %s whatever the model sent (%d different values in, one out), so the model's value is lost; if the member is the hook's own, declare it in hooktest.Options.Changes: %q", clip(k.Value), k.Inputs, name)
	} else if me.Problem == ProblemChanged && name != member {
		detail += fmt.Sprintf("; if the hook changes it on purpose, declare it in hooktest.Options.Changes: %q", name)
	}
	return &Violation{Rule: RuleKeep, Pointer: ptr + me.Pointer, Detail: detail, Err: me}
}

// topMember returns the name of the top-level member that the JSON
// pointer p points into.
func topMember(p string) string {
	tok, _, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
}

// problemOf returns the verdict problem of a MemberError.
func problemOf(me *MemberError) string {
	switch me.Problem {
	case ProblemLost:
		return verdict.Lost
	case ProblemRespelled, ProblemRewritten, ProblemMoved:
		return verdict.Respelled
	}
	return verdict.Changed
}

// updatedInputPointer returns the JSON pointer of the updatedInput in r's
// answer.
func updatedInputPointer(r *Recorder) string {
	if r.Event == hook.EventPermissionRequest {
		return "/hookSpecificOutput/decision/updatedInput"
	}
	return "/hookSpecificOutput/updatedInput"
}

// The rules only a property run checks.
const (
	// RuleFails: the hook failed (exit code 1) on an unchanged fixture, a
	// payload as Claude Code sends it.
	RuleFails = "a hook must not fail on a payload Claude Code sends"
	// RuleRuns: the hook program could not be started, or did not finish
	// in time.
	RuleRuns = "a hook must run to completion"
	// RuleAnswers: the hook answered none of the cases (exit 0 and
	// nothing on stdout every time), so the run tested nothing.
	RuleAnswers = "a property run must reach the hook: it must answer at least one case"
	// NoteRespelled is the rule of a [Report]'s notes: a member of the
	// updatedInput holds the same value as Claude Code reads it, written
	// with other bytes. It is not a failure, except with [Options.Exact].
	NoteRespelled = "a member Claude Code reads as the same value may be written differently (a note)"
)

// rawObject returns {"name":value}.
func rawObject(name string, value jsontext.Value) jsontext.Value {
	b := append(quote(name), ':')
	b = append(append([]byte{'{'}, b...), value...)
	return append(b, '}')
}

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
)

// AddedMember is the name under which the property run adds each tricky
// value to tool_input as a new member.
const AddedMember = "hooktest_added"

// Option configures a property run ([CheckHandler], [CheckCommand],
// [RunProperty]).
type Option func(*config)

type config struct {
	fixtures []Fixture
	values   []Tricky
	changes  []string
	removes  []string
	parallel int
	report   int
}

// Changes names tool_input members the hook changes on purpose, in ways
// that depend on the input (e.g. a hook that prefixes "command"): their
// new values are not checked, but they must still be there. A member the
// hook sets to the same value whatever the other members hold is
// recognised as its own without this option.
func Changes(members ...string) Option {
	return func(c *config) { c.changes = append(c.changes, members...) }
}

// Removes names tool_input members the hook drops on purpose (with
// [hook.Remove]); they are not checked at all.
func Removes(members ...string) Option {
	return func(c *config) { c.removes = append(c.removes, members...) }
}

// UseFixtures replaces the fixtures of the run, which are by default every
// fixture of [Fixtures] that is a PreToolUse or PermissionRequest payload
// with a tool_input object. Fixtures of other events, or without a
// tool_input object, are skipped.
func UseFixtures(fs ...Fixture) Option {
	return func(c *config) { c.fixtures = fs }
}

// UseValues replaces the tricky values of the run, by default
// [TrickyValues].
func UseValues(vs ...Tricky) Option {
	return func(c *config) { c.values = vs }
}

// Parallel runs up to n cases at a time (default 1). Use it for programs
// run with [CheckCommand]; a handler given to [CheckHandler] must then be
// safe for concurrent use.
func Parallel(n int) Option {
	return func(c *config) { c.parallel = max(n, 1) }
}

// MaxReported sets how many failures [CheckHandler] and [CheckCommand]
// report one by one (default 10); the rest are counted, grouped by rule,
// in one more message.
func MaxReported(n int) Option {
	return func(c *config) { c.report = max(n, 0) }
}

// Report is the outcome of a property run.
type Report struct {
	// Fixtures is the number of fixtures run.
	Fixtures int
	// Cases is the number of times the hook ran.
	Cases int
	// Updates is the number of runs whose answer carried an updatedInput.
	Updates int
	// Failures lists the runs that broke a rule, in run order.
	Failures []*Failure
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
	// Member is the tool_input member that held the tricky value (its
	// JSON pointer is "/tool_input/" + Member, escaped); "" for the run
	// on the unchanged fixture.
	Member string
	// Added is true when the value was added as the new member
	// [AddedMember] rather than put in place of an existing member's
	// value.
	Added bool
	// Value is the name of the tricky value ("" for the unchanged
	// fixture).
	Value string
	// Result is the hook's result.
	Result *Recorder
	// Err holds the broken rules: [*Violation]s joined with errors.Join.
	Err error
}

// Where describes the case: the fixture, and the value and where it was.
func (f *Failure) Where() string {
	if f.Value == "" {
		return f.Fixture + " (unchanged)"
	}
	how := "in"
	if f.Added {
		how = "added as"
	}
	return fmt.Sprintf("%s with %s %s /tool_input/%s", f.Fixture, f.Value, how, rawjson.PointerToken(f.Member))
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
// [MaxReported]) and the rest in a summary. It returns the report.
func CheckHandler(t testing.TB, h hook.Handler, opts ...Option) *Report {
	t.Helper()
	r := RunProperty(func(payload []byte) (*Recorder, error) { return Record(h, payload), nil }, opts...)
	reportTo(t, r, opts)
	return r
}

// CheckCommand runs the property run on the hook program c (see
// [RunProperty] and [Command.Run]) and reports failures as
// [CheckHandler] does; a run that cannot start or times out fails the
// test. Each run gets ctx. A program takes milliseconds per run where a
// handler takes microseconds: consider [UseValues] with a few values,
// and [Parallel].
func CheckCommand(t testing.TB, ctx context.Context, c *Command, opts ...Option) *Report {
	t.Helper()
	r := RunProperty(func(payload []byte) (*Recorder, error) { return c.Run(ctx, payload) }, opts...)
	reportTo(t, r, opts)
	return r
}

func reportTo(t testing.TB, r *Report, opts []Option) {
	t.Helper()
	cfg := newConfig(opts)
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

func newConfig(opts []Option) *config {
	c := &config{parallel: 1, report: 10}
	for _, o := range opts {
		o(c)
	}
	return c
}

// RunProperty is the property run behind [CheckHandler] and
// [CheckCommand]; run runs the hook on one payload. For each fixture (see
// [UseFixtures]) it runs the hook on the unchanged payload, then, for
// each tricky value (see [UseValues]), once with the value in place of
// each tool_input member's value and once with the value added as the
// new member [AddedMember]. Every result is checked with [CheckAnswer];
// a run on an unchanged fixture must also not fail (exit code 1). Every
// updatedInput the hook answers must then keep, byte for byte and in
// order, every member of the tool_input the hook was given (tricky value
// included), except:
//   - the members it sets to the value it set them to on the unchanged
//     fixture, which are its own (a fingerprint, a default it fills in);
//   - the members named with [Changes] (values not checked) or [Removes]
//     (not checked at all).
//
// A run whose hook answers without updatedInput, or fails with exit code
// 1 on a tricky value (a typed hook may refuse a number where it wants a
// string), passes if its result breaks no rule. Cases run in fixture
// order, then member order, then value order; with [Parallel] they run
// concurrently but the report keeps that order. RunProperty returns an
// error in the report (as a Failure) when run does.
func RunProperty(run func(payload []byte) (*Recorder, error), opts ...Option) *Report {
	cfg := newConfig(opts)
	if cfg.fixtures == nil {
		cfg.fixtures = Fixtures()
	}
	if cfg.values == nil {
		cfg.values = TrickyValues()
	}
	rep := &Report{}
	for _, f := range cfg.fixtures {
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
		rep.Fixtures++
		runFixture(rep, cfg, run, f, ti, tms)
	}
	return rep
}

// propertyCase is one run of a property run.
type propertyCase struct {
	member  string
	added   bool
	value   Tricky
	payload jsontext.Value
	ti      jsontext.Value
	result  *Recorder
	err     error
}

// runFixture runs every case of one fixture.
func runFixture(rep *Report, cfg *config, run func([]byte) (*Recorder, error), f Fixture, ti jsontext.Value, tms []rawjson.Member) {
	base := &propertyCase{payload: f.JSON, ti: ti}
	base.result, base.err = run(f.JSON)
	rep.Cases++
	// own holds the members the hook sets on the unchanged fixture, with
	// the values it sets them to.
	own := map[string][]byte{}
	if base.result != nil && base.result.UpdatedInput != nil {
		if ums, err := rawjson.Members(base.result.UpdatedInput); err == nil {
			for _, um := range ums {
				if im, ok := rawjson.Find(tms, um.Key); !ok || !sameBytes(im.Value, um.Value) {
					own[um.Key] = um.Value
				}
			}
		}
	}
	finish := func(c *propertyCase) {
		if c.result != nil && c.result.UpdatedInput != nil {
			rep.Updates++
		}
		if err := judge(c, cfg, own, c == base); err != nil {
			rep.Failures = append(rep.Failures, &Failure{Fixture: f.Name, Member: c.member, Added: c.added, Value: c.value.Name, Result: c.result, Err: err})
		}
	}
	finish(base)

	var cases []*propertyCase
	targets := make([]string, 0, len(tms)+1)
	for _, m := range tms {
		targets = append(targets, m.Key)
	}
	targets = append(targets, AddedMember)
	for i, name := range targets {
		for _, v := range cfg.values {
			nti, err := hook.Merge(ti, rawObject(name, v.JSON))
			if err != nil {
				continue // a tricky value that is not valid JSON
			}
			cases = append(cases, &propertyCase{
				member:  name,
				added:   i == len(tms),
				value:   v,
				ti:      nti,
				payload: WithField(f.JSON, "tool_input", nti),
			})
		}
	}
	runCases(cases, cfg.parallel, run)
	rep.Cases += len(cases)
	for _, c := range cases {
		finish(c)
	}
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

// judge checks one case's result.
func judge(c *propertyCase, cfg *config, own map[string][]byte, isBase bool) error {
	if c.result == nil {
		if c.err == nil {
			c.err = errors.New("no result")
		}
		return &Violation{Rule: RuleRuns, Detail: c.err.Error(), Err: c.err}
	}
	chk, err := newChecker(c.payload)
	if err != nil {
		return err
	}
	chk.meant = func(name string, _, out []byte) bool {
		if slices.Contains(cfg.changes, name) {
			return true
		}
		v, ok := own[name]
		return ok && sameBytes(v, out)
	}
	chk.check(c.result.Code, c.result.Stdout, c.result.Stderr)
	if len(cfg.removes) > 0 {
		chk.vs = slices.DeleteFunc(chk.vs, func(v *Violation) bool {
			me, ok := v.Err.(*MemberError)
			return ok && me.Problem == ProblemLost && slices.ContainsFunc(cfg.removes, func(r string) bool {
				return me.Pointer == "/"+rawjson.PointerToken(r)
			})
		})
	}
	if isBase && c.result.Code == hook.ExitError {
		chk.add(RuleFails, "", "exit code 1 on a payload Claude Code sends: %s", clip(trimJS(c.result.Stderr)))
	}
	if c.err != nil {
		chk.vs = append(chk.vs, &Violation{Rule: RuleRuns, Detail: c.err.Error(), Err: c.err})
	}
	return chk.err()
}

// The rules only a property run checks.
const (
	// RuleFails: the hook failed (exit code 1) on an unchanged fixture, a
	// payload as Claude Code sends it.
	RuleFails = "a hook must not fail on a payload Claude Code sends"
	// RuleRuns: the hook program could not be started, or did not finish
	// in time.
	RuleRuns = "a hook must run to completion"
)

// rawObject returns {"name":value}.
func rawObject(name string, value jsontext.Value) jsontext.Value {
	b := append(quote(name), ':')
	b = append(append([]byte{'{'}, b...), value...)
	return append(b, '}')
}

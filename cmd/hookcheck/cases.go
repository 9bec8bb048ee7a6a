package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/protocol"
	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/verdict"
)

// payload is one fixture prepared for runs: its compact bytes split into
// top-level members, and the members of its tool_input when tricky values
// go there.
type payload struct {
	name  string
	event string
	tool  string           // tool_name; empty when the event has none
	top   []rawjson.Member // the members of the compact payload
	// input is the index of tool_input in top, or -1.
	input int
	// fields are the members of tool_input that receive tricky values:
	// set only for the events whose answer can replace the tool input.
	// For a PostToolUse payload (output set) they are the places of its
	// tool_response that do, at every depth (verdict.Slots): Key is the
	// JSON pointer in the tool_response, Value what it holds.
	fields []rawjson.Member
	// output is set for a PostToolUse payload whose tool_response
	// receives the tricky values; response is the index of tool_response
	// in top, or -1.
	output   bool
	response int
	// controlCode is the exit code of the control run, once it ran.
	controlCode int
	// given is true for a payload built from -tool and -input: the
	// author's own call, which every run sends.
	given bool
}

// testCase is one run: a payload, and for a tricky case the tool_input
// member that holds the tricky value.
type testCase struct {
	p *payload
	// field is the index in p.fields of the member holding value; -1 for
	// the control run, which sends the payload as it is, and for the
	// names run.
	field int
	// names is set for the run whose tool_input has members of unusual
	// names added (verdict.OddMembers).
	names bool
	value hooktest.Tricky
	// toolInput is the tool_input sent; nil when the payload has none.
	toolInput jsontext.Value
	// toolResponse is the tool_response sent, for a payload whose answer
	// can replace it (payload.output); nil otherwise.
	toolResponse jsontext.Value
	// payload is the compact payload; the hook reads it and a newline.
	payload []byte
}

// name names the case for people: the fixture, and the member and value
// for a tricky case.
func (c *testCase) name() string {
	if c.names {
		return c.p.name + " + " + verdict.NamesCase
	}
	if c.field < 0 {
		return c.p.name
	}
	return fmt.Sprintf("%s %s = %s", c.p.name, c.pointer(), c.value.Name)
}

// strictTier reports whether the case puts a tricky value Claude Code
// never sends into the payload (see hooktest.Tricky.Sendable).
func (c *testCase) strictTier() bool { return c.field >= 0 && !c.value.Sendable() }

// pointer is the JSON pointer of the member holding the tricky value, or
// "" for the control run.
func (c *testCase) pointer() string {
	if c.field < 0 {
		return ""
	}
	if c.p.output {
		return "/tool_response" + c.p.fields[c.field].Key
	}
	return "/tool_input/" + rawjson.PointerToken(c.p.fields[c.field].Key)
}

// takesUpdatedInput reports whether the answer to event can replace the
// tool input, which is where lost members do harm.
func takesUpdatedInput(event string) bool {
	return event == hook.EventPreToolUse || event == hook.EventPermissionRequest
}

// fixture is one hook payload to run the hook on.
type fixture = hooktest.Fixture

// loadFixtures returns the payloads cfg selects, in a stable order: the
// fixtures of the -event events that Claude Code would run a hook with
// the -matcher on, then the -tool calls.
func loadFixtures(cfg *config) ([]*payload, error) {
	var fxs []fixture
	if cfg.fixturesDir != "" {
		var err error
		if fxs, err = readFixtureDir(cfg.fixturesDir); err != nil {
			return nil, usageError{err}
		}
	} else if cfg.codex {
		fxs = hooktest.CodexFixtures()
	} else {
		fxs = hooktest.Fixtures()
	}
	var ps []*payload
	for _, fx := range fxs {
		if len(cfg.events) > 0 && !slices.Contains(cfg.events, fx.Event) {
			continue
		}
		p, err := preparePayload(fx)
		if err != nil {
			return nil, usagef("fixture %s: %v", fx.Name, err)
		}
		if cfg.matcher != nil && !cfg.matcher(eventOf(p)) {
			continue
		}
		ps = append(ps, p)
	}
	if cfg.tool != "" {
		for _, ev := range cfg.events {
			var b []byte
			switch ev {
			case hook.EventPreToolUse:
				b = hooktest.NewPreToolUse(cfg.tool, cfg.input)
			case hook.EventPermissionRequest:
				b = hooktest.NewPermissionRequest(cfg.tool, cfg.input)
			case hook.EventPostToolUse:
				if cfg.response == "" {
					continue
				}
				b = hooktest.NewPostToolUse(cfg.tool, cfg.input, cfg.response)
			default:
				continue
			}
			if cfg.codex {
				if cb := codexCall(ev, cfg.tool, cfg.input, cfg.response); cb != nil {
					b = cb
				}
			}
			p, err := preparePayload(fixture{Name: strings.ToLower(ev) + " " + cfg.tool, Event: ev, JSON: b})
			if err != nil {
				return nil, usagef("-tool %s -input: %v", cfg.tool, err)
			}
			p.given = true
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return nil, noPayload(cfg)
	}
	return ps, nil
}

// noPayload explains a selection of no payload, and how to get some:
// -tool for the calls of a tool (PreToolUse and PermissionRequest; with
// -response, PostToolUse), -fixtures for the payloads of other events.
func noPayload(cfg *config) error {
	events := "every event"
	if len(cfg.events) > 0 {
		events = strings.Join(cfg.events, ", ")
	}
	if cfg.matcherText == "" {
		return usagef("no fixture is a payload of %s; give payloads of it with -fixtures DIR (one JSON object a file, as %s sends them)", events, cfg.agent())
	}
	toolCalls := slices.ContainsFunc(cfg.events, takesUpdatedInput)
	outputs := slices.Contains(cfg.events, hook.EventPostToolUse)
	give := "-tool %s -input '{...its tool_input...}'"
	switch {
	case outputs && !toolCalls:
		give = "-tool %s -input '{...its tool_input...}' -response '...its tool_response...'"
	case outputs:
		give += " (and -response '...its tool_response...' for its PostToolUse payload)"
	}
	if names := exactNames(hook.EventPreToolUse, cfg.matcherText); len(names) > 0 && slices.ContainsFunc(cfg.events, func(e string) bool { return protocol.MatcherOf(e) == "tool_name" }) {
		if toolCalls || outputs {
			return usagef("no fixture of %s calls %s; give a call of it: "+give, events, strings.Join(names, " or "), names[0])
		}
		return usagef("no fixture of %s calls %s; give payloads of its calls with -fixtures DIR (one JSON object a file, as %s sends them; -tool sends only PreToolUse, PermissionRequest and, with -response, PostToolUse calls)", events, strings.Join(names, " or "), cfg.agent())
	}
	if toolCalls || outputs {
		return usagef("no fixture of %s matches -matcher %q; give a call of the tool: "+give, events, cfg.matcherText, "NAME")
	}
	return usagef("no fixture of %s matches -matcher %q; give payloads it matches with -fixtures DIR (one JSON object a file, as %s sends them)", events, cfg.matcherText, cfg.agent())
}

// eventOf returns the payload as hook.Serve reads it, for the matcher.
// A payload Serve cannot read gives an Event with the payload's event
// name only, which every matcher of the event's own matches or not by
// its absent field.
func eventOf(p *payload) *hook.Event {
	var got *hook.Event
	b := rawjson.AppendObject(nil, p.top)
	hook.Serve(context.Background(), bytes.NewReader(b), io.Discard, io.Discard, hook.HandlerFunc(func(_ context.Context, ev *hook.Event) (hook.Output, error) {
		got = ev
		return nil, nil
	}))
	if got == nil {
		got = &hook.Event{HookEventName: p.event}
	}
	return got
}

// readFixtureDir reads every *.json file under dir that holds a JSON
// object with a hook_event_name; other files are skipped.
func readFixtureDir(dir string) ([]fixture, error) {
	var fxs []fixture
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".json") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		ms, err := rawjson.Members(b)
		if err != nil {
			return nil // not a payload: an answer, a list, …
		}
		m, ok := rawjson.Find(ms, "hook_event_name")
		if !ok {
			return nil
		}
		var event string
		if jsontext.Value(m.Value).Kind() == '"' {
			event = unquote(m.Value)
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			rel = path
		}
		name := strings.TrimSuffix(filepath.ToSlash(rel), ".json")
		fxs = append(fxs, fixture{Name: name, Event: event, JSON: b})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("-fixtures: %w", err)
	}
	if len(fxs) == 0 {
		return nil, fmt.Errorf("-fixtures: no hook payload (a *.json object with a hook_event_name) under %s", dir)
	}
	return fxs, nil
}

// preparePayload compacts a fixture and splits it into members.
func preparePayload(fx fixture) (*payload, error) {
	b := jsontext.Value(slices.Clone(fx.JSON))
	if err := b.Compact(); err != nil {
		return nil, err
	}
	top, err := rawjson.Members(b)
	if err != nil {
		return nil, err
	}
	p := &payload{name: fx.Name, event: fx.Event, top: top, input: -1, response: -1}
	if m, ok := rawjson.Find(top, "tool_name"); ok && jsontext.Value(m.Value).Kind() == '"' {
		p.tool = unquote(m.Value)
	}
	for i, m := range top {
		if m.Key != "tool_input" {
			continue
		}
		p.input = i
		if takesUpdatedInput(p.event) {
			p.fields, _ = rawjson.Members(m.Value) // nil when not an object
		}
	}
	if i := slices.IndexFunc(top, func(m rawjson.Member) bool { return m.Key == "tool_response" }); i >= 0 && p.event == hook.EventPostToolUse {
		p.response, p.output = i, true
		for _, s := range verdict.Slots(top[i].Value) {
			p.fields = append(p.fields, rawjson.Member{Key: s.Pointer, Value: s.Value})
		}
	}
	return p, nil
}

// unquote decodes a JSON string token; it returns "" for anything else.
func unquote(v []byte) string {
	var s string
	tok, err := jsontext.NewDecoder(bytes.NewReader(v), jsonopts.Lenient()).ReadToken()
	if err == nil && tok.Kind() == '"' {
		s = tok.String()
	}
	return s
}

// selectValues returns the tricky values named in names, all of them when
// names is empty.
func selectValues(names []string) ([]hooktest.Tricky, error) {
	all := hooktest.TrickyValues()
	if len(names) == 0 {
		return all, nil
	}
	var out []hooktest.Tricky
	for _, n := range names {
		i := slices.IndexFunc(all, func(t hooktest.Tricky) bool { return t.Name == n })
		if i < 0 {
			var known []string
			for _, t := range all {
				known = append(known, fmt.Sprintf("%q", t.Name))
			}
			return nil, usagef("-values: no tricky value is named %q; the names are %s", n, strings.Join(known, ", "))
		}
		out = append(out, all[i])
	}
	return out, nil
}

// distinctShapes returns one payload of each shape: same event, same
// tool, same top-level names and same tool_input names, and the same
// stop_hook_active (a Stop hook must answer both), in order. A default run
// sends each shape once; the recorded fixtures repeat many. The payloads
// built from -tool and -input are the author's own and are always kept; a
// built-in fixture of the same shape as one of them is left out.
func distinctShapes(ps []*payload) []*payload {
	seen := map[string]bool{}
	for _, p := range ps {
		if p.given {
			seen[p.shape()] = true
		}
	}
	var out []*payload
	for _, p := range ps {
		if p.given {
			out = append(out, p)
			continue
		}
		if k := p.shape(); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	return out
}

// shape returns the key distinctShapes groups payloads by.
func (p *payload) shape() string {
	var b strings.Builder
	b.WriteString(p.event + "\x00" + p.tool)
	for _, m := range p.top {
		b.WriteString("\x00" + m.Key)
		if m.Key == "stop_hook_active" {
			b.Write(m.Value)
		}
	}
	b.WriteString("\x00\x00")
	for _, m := range p.fields {
		b.WriteString("\x00" + m.Key)
	}
	return b.String()
}

// namesCases returns one run per payload whose tool_input receives tricky
// values, with members of unusual names added to it (verdict.OddMembers:
// "seat-count", a dot, a space, non-ASCII, case twins of its names, …),
// which a hook that keeps only the names it knows loses.
func namesCases(ps []*payload) []*testCase {
	var cases []*testCase
	for _, p := range ps {
		if p.output {
			resp := p.top[p.response].Value
			nr, ok := verdict.WithOddMembers(resp)
			if !ok {
				continue // a string result has no member names
			}
			c := &testCase{p: p, field: -1, names: true, value: hooktest.Tricky{Name: verdict.NamesCase}, toolResponse: nr}
			top := slices.Clone(p.top)
			top[p.response].Value = nr
			c.payload = rawjson.AppendObject(nil, top)
			cases = append(cases, c)
			continue
		}
		if len(p.fields) == 0 {
			continue
		}
		names := make([]string, len(p.fields))
		for i, f := range p.fields {
			names[i] = f.Key
		}
		c := &testCase{p: p, field: -1, names: true, value: hooktest.Tricky{Name: verdict.NamesCase}}
		c.toolInput = rawjson.AppendObject(nil, append(slices.Clip(p.fields), verdict.OddMembers(names)...))
		top := slices.Clone(p.top)
		top[p.input].Value = c.toolInput
		c.payload = rawjson.AppendObject(nil, top)
		cases = append(cases, c)
	}
	return cases
}

// controlCases returns one run per payload, with the payload as it is.
func controlCases(ps []*payload) []*testCase {
	cases := make([]*testCase, len(ps))
	for i, p := range ps {
		cases[i] = newCase(p, -1, hooktest.Tricky{})
	}
	return cases
}

// slot is one member of one payload that receives tricky values.
type slot struct {
	p     *payload
	field int
}

// trickyCases returns the runs with a tricky value in a tool_input
// member of the payloads ps. With full set, every value goes into every
// member. Otherwise the runs form a covering set in three parts:
//   - every member receives perMember values (fewer when there are fewer
//     values) and every value is used at least once: the values are dealt
//     to the members round by round, continuing through the list from
//     member to member, so each value lands in about as many members as
//     any other;
//   - the members in kept receive every value at least once among them;
//   - so do the members in read.
//
// That is about max(members × perMember, values) + 2 × values runs, not
// members × values.
func trickyCases(ps []*payload, values []hooktest.Tricky, perMember int, full bool, kept, read []slot) []*testCase {
	var all []slot
	index := map[slot]int{}
	for _, p := range ps {
		for i := range p.fields {
			index[slot{p, i}] = len(all)
			all = append(all, slot{p, i})
		}
	}
	if len(all) == 0 || len(values) == 0 {
		return nil
	}
	indices := func(ss []slot) []int {
		var out []int
		for _, s := range ss {
			if i, ok := index[s]; ok && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
		return out
	}
	given := make([][]bool, len(all)) // given[s][v]: slot s gets value v
	for s := range given {
		given[s] = make([]bool, len(values))
	}
	if full {
		perMember = len(values)
	}
	deal(given, indices(all), perMember)
	deal(given, indices(kept), 0)
	deal(given, indices(read), 0)
	var cases []*testCase
	for s, sl := range all {
		for v, ok := range given[s] {
			if ok {
				cases = append(cases, newCase(sl.p, sl.field, values[v]))
			}
		}
	}
	return cases
}

// deal deals values to the slots of given that slots lists, round by
// round, until every listed slot has perMember values it did not have
// before and every value went to at least one listed slot (or the slots
// are full).
func deal(given [][]bool, slots []int, perMember int) {
	if len(slots) == 0 {
		return
	}
	n := len(given[0])
	used := make([]bool, n)
	unused := n
	for _, s := range slots {
		for v, ok := range given[s] {
			if ok && !used[v] {
				used[v] = true
				unused--
			}
		}
	}
	next := 0 // the next value to deal
	for round := 0; round < n && (round < perMember || unused > 0); round++ {
		// Past perMember rounds, only values no listed slot has are dealt.
		onlyUnused := round >= perMember
		for _, s := range slots {
			if onlyUnused && unused == 0 {
				break
			}
			for range n {
				v := next % n
				next++
				if given[s][v] || (onlyUnused && used[v]) {
					continue
				}
				given[s][v] = true
				if !used[v] {
					used[v] = true
					unused--
				}
				break
			}
		}
	}
}

// newCase builds the payload of a run: p with, for a tricky case, the
// value of tool_input member field replaced by value's bytes.
func newCase(p *payload, field int, value hooktest.Tricky) *testCase {
	c := &testCase{p: p, field: field, value: value}
	top := p.top
	if p.input >= 0 {
		c.toolInput = p.top[p.input].Value
	}
	if p.output {
		c.toolResponse = p.top[p.response].Value
		if field >= 0 {
			nr, ok := verdict.SetAt(c.toolResponse, p.fields[field].Key, value.JSON)
			if ok {
				c.toolResponse = nr
				top = slices.Clone(p.top)
				top[p.response].Value = nr
			}
		}
		c.payload = rawjson.AppendObject(nil, top)
		return c
	}
	if field >= 0 {
		fields := slices.Clone(p.fields)
		fields[field].Value = value.JSON
		c.toolInput = rawjson.AppendObject(nil, fields)
		top = slices.Clone(p.top)
		top[p.input].Value = c.toolInput
	}
	c.payload = rawjson.AppendObject(nil, top)
	return c
}

// codexCall returns Codex's payload of event (PreToolUse,
// PermissionRequest, or PostToolUse with the tool_response response)
// calling tool with the tool_input input: the built-in Codex fixture of
// the event with its tool_name, tool_input (and tool_response) replaced;
// nil when input is not one JSON object, or response not one JSON value
// (the Claude Code payload then carries the mistake to the error that
// names it).
func codexCall(event, tool, input, response string) []byte {
	if v := jsontext.Value(input); !v.IsValid() || v.Kind() != '{' {
		return nil
	}
	name := map[string]string{hook.EventPreToolUse: "codex/pre-tool-use", hook.EventPermissionRequest: "codex/permission-request", hook.EventPostToolUse: "codex/post-tool-use"}[event]
	for _, f := range hooktest.CodexFixtures() {
		if f.Name == name {
			b := hooktest.WithField(hooktest.WithField(f.JSON, "tool_name", tool), "tool_input", jsontext.Value(input))
			if event == hook.EventPostToolUse {
				if valid, _ := rawjson.Valid([]byte(response)); !valid {
					return nil
				}
				b = hooktest.WithField(b, "tool_response", jsontext.Value(response))
			}
			return b
		}
	}
	panic("hookcheck: no built-in Codex fixture " + name)
}

package hooktest

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// The fixtures are the ones of the project's shared fixture set: one input
// payload per case for every event, the answers Claude Code accepts and
// rejects, and payloads recorded byte for byte from Claude Code 2.1.332 (the Interrupt
// session from 2.1.336).
//
//go:embed fixtures/*.json fixtures/captured/*/*.json
//go:embed fixtures/outputs/*.json fixtures/outputs/*.txt
//go:embed fixtures/outputs/invalid/*.json fixtures/outputs/invalid/*.txt
var fixtureFS embed.FS

// Fixture is one embedded hook input payload.
type Fixture struct {
	// Name identifies the fixture: the file name without ".json" for the
	// hand-written payloads ("pretooluse-bash"), and
	// "captured/<experiment>/<file without .json>" for payloads recorded
	// from the real Claude Code
	// ("captured/a_mcp_partial_updatedInput/PreToolUse.mcp__probe__listen_here.1").
	Name string
	// Event is the payload's hook_event_name, such as "PreToolUse".
	Event string
	// JSON is the payload as Claude Code writes it on stdin: one compact
	// JSON object (without the trailing newline). Compacting only drops
	// whitespace; every name and value keeps its bytes.
	JSON jsontext.Value
}

// loadFixtures reads and compacts every embedded payload once.
var loadFixtures = sync.OnceValue(func() []Fixture {
	var out []Fixture
	add := func(name, file string) {
		b, err := fixtureFS.ReadFile(file)
		if err != nil {
			panic("hooktest: reading embedded fixture: " + err.Error())
		}
		v := jsontext.Value(b)
		if err := v.Compact(jsonopts.Lenient()); err != nil {
			panic(fmt.Sprintf("hooktest: embedded fixture %s: %v", file, err))
		}
		if v.Kind() != '{' {
			return // not a hook input, e.g. what the model saw
		}
		ms, err := rawjson.Members(v)
		if err != nil {
			panic(fmt.Sprintf("hooktest: embedded fixture %s: %v", file, err))
		}
		ev, ok := stringMember(ms, "hook_event_name")
		if !ok {
			return // not a hook input, e.g. what the model saw
		}
		out = append(out, Fixture{Name: name, Event: ev, JSON: v})
	}
	byName := func(a, b Fixture) int { return strings.Compare(a.Name, b.Name) }
	top, _ := fs.Glob(fixtureFS, "fixtures/*.json")
	for _, f := range top {
		add(strings.TrimSuffix(path.Base(f), ".json"), f)
	}
	slices.SortFunc(out, byName)
	n := len(out)
	captured, _ := fs.Glob(fixtureFS, "fixtures/captured/*/*.json")
	for _, f := range captured {
		add(strings.TrimSuffix(strings.TrimPrefix(f, "fixtures/"), ".json"), f)
	}
	slices.SortFunc(out[n:], byName)
	return out
})

// Fixtures returns every embedded input payload: first the hand-written
// ones, covering all 35 events of Claude Code 2.1.336, sorted by name,
// then the payloads recorded from the real Claude Code, sorted by name.
// Each call returns a new slice with its own copies of the bytes, so the
// caller may modify them. The set of fixtures grows with new Claude Code
// releases; do not depend on its size.
func Fixtures() []Fixture {
	fs := loadFixtures()
	out := make([]Fixture, len(fs))
	for i, f := range fs {
		out[i] = Fixture{Name: f.Name, Event: f.Event, JSON: clone(f.JSON)}
	}
	return out
}

// Payload returns a copy of the payload of the fixture called name: any
// name that [Fixtures] or [CodexFixtures] gives (see [Fixture.Name]), e.g.
// Payload("pretooluse-bash") or Payload("codex/pre-tool-use"). It panics
// if there is no such fixture.
func Payload(name string) jsontext.Value {
	for _, set := range [][]Fixture{loadFixtures(), loadCodexFixtures()} {
		for _, f := range set {
			if f.Name == name {
				return clone(f.JSON)
			}
		}
	}
	panic(fmt.Sprintf("hooktest: Payload: no fixture called %q (Fixtures and CodexFixtures list the names)", name))
}

func clone(v []byte) jsontext.Value {
	if v == nil {
		return nil
	}
	return append(jsontext.Value(nil), v...)
}

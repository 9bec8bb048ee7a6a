package hooktest

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/agent"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// CodexFixtures returns payloads of the OpenAI Codex CLI (the release
// named in docs/agents.md), sorted by name, each named "codex/<file>"
// (such as "codex/pre-tool-use-mcp"): one per event Codex sends, built
// from its published input schemas, and the shell, apply_patch and MCP
// tool calls as Codex sends them to PreToolUse. Pass them to
// [Options.Fixtures] to run the same properties on Codex's payloads as on
// Claude Code's:
//
//	hooktest.CheckHandler(t, h, &hooktest.Options{Fixtures: hooktest.CodexFixtures()})
//
// A hook served on one of them answers as it would under Codex: [hook.Serve]
// refuses an answer Codex would refuse (see hook.Event.Agent), so such an
// answer fails the run. Each call returns new copies.
func CodexFixtures() []Fixture {
	fs := loadCodexFixtures()
	out := make([]Fixture, len(fs))
	for i, f := range fs {
		out[i] = Fixture{Name: f.Name, Event: f.Event, JSON: clone(f.JSON)}
	}
	return out
}

// loadCodexFixtures reads and compacts the Codex payloads once.
var loadCodexFixtures = sync.OnceValue(func() []Fixture {
	var out []Fixture
	for name, b := range agent.CodexFixtures() {
		v := jsontext.Value(b)
		if err := v.Compact(jsonopts.Lenient()); err != nil {
			panic(fmt.Sprintf("hooktest: embedded Codex fixture %s: %v", name, err))
		}
		ms, err := rawjson.Members(v)
		if err != nil {
			panic(fmt.Sprintf("hooktest: embedded Codex fixture %s: %v", name, err))
		}
		ev, _ := stringMember(ms, "hook_event_name")
		out = append(out, Fixture{Name: codexPrefix + name, Event: ev, JSON: v})
	}
	slices.SortFunc(out, func(a, b Fixture) int { return strings.Compare(a.Name, b.Name) })
	return out
})

// codexPrefix starts the name of every Codex fixture.
const codexPrefix = "codex/"

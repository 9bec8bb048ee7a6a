package hooktest_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/protocol"
)

func TestFixturesCoverEveryEvent(t *testing.T) {
	fs := hooktest.Fixtures()
	events := map[string]int{}
	for _, f := range fs {
		events[f.Event]++
		assert.True(t, protocol.Known(f.Event), "%s: unknown event %q", f.Name, f.Event)
		assert.True(t, f.JSON.IsValid(jsonopts.Lenient()), f.Name)
		got, ok := hooktest.Field(f.JSON, "hook_event_name")
		require.True(t, ok, f.Name)
		assert.Equal(t, `"`+f.Event+`"`, string(got), f.Name)
		c := bytes.Clone(f.JSON)
		require.NoError(t, (*jsontext.Value)(&c).Compact(jsonopts.Lenient()))
		assert.Equal(t, string(c), string(f.JSON), "%s is not compact", f.Name)
	}
	assert.Len(t, events, len(protocol.Events), "every event of Claude Code "+protocol.ClaudeCode+" has a fixture")
	assert.Contains(t, names(fs), "pretooluse-bash")
	assert.Contains(t, names(fs), "captured/a_mcp_partial_updatedInput/PreToolUse.mcp__probe__listen_here.1")
	for _, n := range names(fs) {
		assert.NotContains(t, n, "model-saw", "only hook inputs are fixtures")
	}
	assert.True(t, slices.IsSortedFunc(fs[:slices.IndexFunc(fs, isCaptured)], byName), "hand-written fixtures sorted")
}

func isCaptured(f hooktest.Fixture) bool { return strings.HasPrefix(f.Name, "captured/") }

func byName(a, b hooktest.Fixture) int { return strings.Compare(a.Name, b.Name) }

func names(fs []hooktest.Fixture) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

func TestCapturedPayloadsAreWireBytes(t *testing.T) {
	// Recorded payloads are compact already: Fixtures hands them back
	// exactly as Claude Code wrote them.
	p := hooktest.Payload("captured/a_mcp_partial_updatedInput/PreToolUse.mcp__probe__listen_here.1")
	assert.True(t, bytes.HasPrefix(p, []byte(`{"session_id":"<SESSION_ID>",`)))
	ti, ok := hooktest.Field(p, "tool_input")
	require.True(t, ok)
	assert.Equal(t, `{"room":"Probe"}`, string(ti))
}

func TestFixturesAreCopies(t *testing.T) {
	a := hooktest.Fixtures()
	a[0].JSON[0] = 'X'
	b := hooktest.Fixtures()
	assert.Equal(t, byte('{'), b[0].JSON[0])
	p := hooktest.Payload("pretooluse-bash")
	p[0] = 'X'
	assert.Equal(t, byte('{'), hooktest.Payload("pretooluse-bash")[0])
}

func TestPayloadPanicsOnUnknownName(t *testing.T) {
	assert.PanicsWithValue(t, `hooktest: Payload: no fixture called "no-such-fixture" (Fixtures and CodexFixtures list the names)`, func() { hooktest.Payload("no-such-fixture") })
}

// inputFor returns an input payload that the answer fixture a answers: the
// first fixture of its event, with tool_input set to the answer's
// updatedInput when it has one, so that a full updatedInput is a full one.
func inputFor(t *testing.T, a hooktest.AnswerFixture) jsontext.Value {
	t.Helper()
	event := a.Event
	if event == "" {
		event = hook.EventPreToolUse
	}
	in := hooktest.NewEvent(event)
	if strings.Contains(a.Name, "askuserquestion") {
		in = hooktest.Payload("pretooluse-askuserquestion")
	}
	var upd jsontext.Value
	if h, ok := hooktest.Field(jsontext.Value(bytes.TrimSpace(a.Stdout)), "hookSpecificOutput"); ok {
		if u, ok := hooktest.Field(h, "updatedInput"); ok {
			upd = u
		}
		if d, ok := hooktest.Field(h, "decision"); ok {
			if u, ok := hooktest.Field(d, "updatedInput"); ok {
				upd = u
			}
		}
	}
	if upd != nil && upd.Kind() == '{' && len(upd) > 2 && !strings.Contains(a.Name, "askuserquestion") && !strings.Contains(a.Name, "partial") {
		in = hooktest.WithField(in, "tool_input", upd)
	}
	return in
}

func TestAnswerFixtures(t *testing.T) {
	as := hooktest.Answers()
	require.NotEmpty(t, as)
	valid, invalid := 0, 0
	for _, a := range as {
		in := inputFor(t, a)
		err := hooktest.CheckAnswer(in, 0, a.Stdout, nil)
		if a.Valid {
			valid++
			assert.NoError(t, err, a.Name)
		} else {
			invalid++
			assert.Error(t, err, a.Name)
		}
	}
	assert.Greater(t, valid, 50)
	assert.Equal(t, 17, invalid, "the 16 invalid answers and the HTTP-only one")
}

package hooktest_test

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

var secret = regexp.MustCompile(`sk-live-[0-9A-Za-z]+`)

func redact(s string) string { return secret.ReplaceAllString(s, "[redacted]") }

// redactor is a PostToolUse redaction hook built with the library: it
// rewrites the secrets out of a Bash output with hook.Edit and out of
// every text of an MCP tool's result with hook.EditText.
func redactor() hook.Handler {
	return hook.PostToolUseFunc(func(ctx context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		switch {
		case e.ToolName == "Bash" && e.ToolResponse.Kind() == '{':
			out, err := hook.Edit(e.ToolResponse, func(r *hook.BashResponse) error {
				r.Stdout, r.Stderr = redact(r.Stdout), redact(r.Stderr)
				return nil
			})
			return &hook.PostToolUseOutput{UpdatedToolOutput: out}, err
		case strings.HasPrefix(e.ToolName, "mcp__"):
			out, err := hook.EditText(e.ToolResponse, func(s string) (string, error) { return redact(s), nil })
			if e.Agent() == hook.AgentCodex {
				return &hook.PostToolUseOutput{UpdatedMCPToolOutput: out}, err
			}
			return &hook.PostToolUseOutput{UpdatedToolOutput: out}, err
		}
		return nil, nil
	})
}

// droppingRedactor is the 20 hand-written lines a new user writes: it
// builds a fresh result of the members it knows, and of an MCP result
// keeps the first block's text.
func droppingRedactor() hook.Handler {
	return hook.PostToolUseFunc(func(ctx context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		switch {
		case e.ToolName == "Bash" && e.ToolResponse.Kind() == '{':
			var r struct {
				Stdout      string `json:"stdout"`
				Stderr      string `json:"stderr"`
				Interrupted bool   `json:"interrupted"`
				IsImage     bool   `json:"isImage"`
			}
			if err := json.Unmarshal(e.ToolResponse, &r); err != nil {
				return nil, err
			}
			r.Stdout, r.Stderr = redact(r.Stdout), redact(r.Stderr)
			b, _ := json.Marshal(r)
			return &hook.PostToolUseOutput{UpdatedToolOutput: b}, nil
		case strings.HasPrefix(e.ToolName, "mcp__") && e.ToolResponse.Kind() == '[':
			var blocks []struct{ Text string }
			if err := json.Unmarshal(e.ToolResponse, &blocks); err != nil || len(blocks) == 0 {
				return nil, err
			}
			b, _ := json.Marshal([]map[string]string{{"type": "text", "text": redact(blocks[0].Text)}})
			return &hook.PostToolUseOutput{UpdatedToolOutput: b}, nil
		}
		return nil, nil
	})
}

// secretTools are calls whose results hold a secret, so that the
// redaction hooks answer.
var secretTools = []hooktest.Tool{
	{Name: "Bash", Input: `{"command":"env"}`, Response: `{"stdout":"KEY=sk-live-9f3a","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}`},
	{Name: "mcp__vault__read", Input: `{"path":"app/key"}`, Response: `[{"type":"text","text":"token sk-live-77 for app"},{"type":"text","text":"expires in 3 days"}]`},
}

func TestLibraryRedactorPassesTheOutputPropertyRun(t *testing.T) {
	rec := &recordingTB{TB: t}
	rep := hooktest.CheckHandler(rec, redactor(), &hooktest.Options{
		Fixtures:      append(hooktest.Fixtures(), hooktest.CodexFixtures()...),
		Tools:         secretTools,
		OutputChanges: []string{"stdout", "/0/text"},
	})
	assert.Empty(t, rec.errors)
	assert.Empty(t, rep.Failures)
	assert.Positive(t, rep.Updates)
	// The secret results are rewritten whatever the value in their other
	// places: the Bash output's four other members and the added one, the
	// MCP result's second block and first type.
	n := len(hooktest.TrickyValues())
	assert.Greater(t, rep.Updates, 3*n, "the secret results answered with every value in their other places")
}

func TestDroppingRedactorFailsTheOutputPropertyRun(t *testing.T) {
	rec := &recordingTB{TB: t}
	rep := hooktest.CheckHandler(rec, droppingRedactor(), &hooktest.Options{Tools: secretTools, Values: hooktest.RoomNames()[:2], MaxReported: -1})
	require.NotEmpty(t, rep.Failures)
	var msgs []string
	for _, f := range rep.Failures {
		msgs = append(msgs, f.Error())
	}
	all := strings.Join(msgs, "\n")
	assert.Contains(t, all, "posttooluse-bash (unchanged):\n\t/hookSpecificOutput/updatedToolOutput/noOutputExpected: member lost ("+hooktest.RuleKeepOutput+")")
	assert.Contains(t, all, "/hookSpecificOutput/updatedToolOutput/1: member lost", "a dropped content block")
	assert.Contains(t, all, "with title in /tool_response/1/text:")
	assert.Contains(t, all, "/hookSpecificOutput/updatedToolOutput/hooktest_added: member lost")
	assert.Contains(t, all, "with members of unusual names added to every object of /tool_response")
	f := rep.Failures[0]
	assert.True(t, strings.HasPrefix(f.Pointer, "/tool_response") || f.Value == "", f.Pointer)
}

func TestOutputPropertyRunJudgesEveryDepth(t *testing.T) {
	// A hook that mangles what it does not know: a non-ASCII character
	// deep in an Edit's structuredPatch, the second line of it.
	h := hook.PostToolUseFunc(func(ctx context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		if e.ToolName != "Edit" {
			return nil, nil
		}
		var v any
		if err := json.Unmarshal(e.ToolResponse, &v); err != nil {
			return nil, err
		}
		b, _ := json.Marshal(v) // escapes <, >, & and turns \ud800 into U+FFFD
		return &hook.PostToolUseOutput{UpdatedToolOutput: b}, nil
	})
	var fs []hooktest.Fixture
	for _, f := range hooktest.Fixtures() {
		if f.Name == "posttooluse-edit" {
			fs = append(fs, f)
		}
	}
	require.Len(t, fs, 1)
	rep := hooktest.RunProperty(func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(h, p), nil },
		&hooktest.Options{Fixtures: fs, Values: []hooktest.Tricky{{Name: "lone surrogate", JSON: jsontext.Value(`"\ud800"`)}}})
	var where []string
	for _, f := range rep.Failures {
		where = append(where, f.Pointer)
	}
	assert.Contains(t, where, "/tool_response/structuredPatch/0/lines/1")
	assert.Contains(t, where, "/tool_response/filePath")
}

func TestOutputPropertyRunOnStringOutput(t *testing.T) {
	// Codex's shell output is one string: only the tricky string values go
	// in its place, and there are no member names to vary.
	var fs []hooktest.Fixture
	for _, f := range hooktest.CodexFixtures() {
		if f.Event == hook.EventPostToolUse {
			fs = append(fs, f)
		}
	}
	require.Len(t, fs, 2)
	silent := func(p []byte) (*hooktest.Recorder, error) {
		return hooktest.Record(hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return nil, nil }), p), nil
	}
	rep := hooktest.RunProperty(silent, &hooktest.Options{Fixtures: fs, Values: hooktest.TrickyValues()})
	strs := 0
	for _, v := range hooktest.TrickyValues() {
		if v.JSON.Kind() == '"' {
			strs++
		}
	}
	assert.Equal(t, 2*(1+strs), rep.Cases, "each fixture unchanged, and with every string value as its output")

	// An MCP tool's result may be one string too; a hook that trims it
	// is caught there.
	trim := hook.PostToolUseFunc(func(ctx context.Context, e *hook.PostToolUse) (*hook.PostToolUseOutput, error) {
		var s string
		if err := json.Unmarshal(e.ToolResponse, &s); err != nil {
			return nil, err
		}
		b, _ := json.Marshal(strings.TrimSpace(s) + ".")
		return &hook.PostToolUseOutput{UpdatedToolOutput: b}, nil
	})
	rep = hooktest.RunProperty(func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(trim, p), nil }, &hooktest.Options{
		Fixtures: []hooktest.Fixture{},
		Tools:    []hooktest.Tool{{Name: "mcp__notes__read", Input: `{"id":"n1"}`, Response: `"the note"`}},
		Values:   hooktest.RoomNames(),
	})
	require.NotEmpty(t, rep.Failures)
	last := rep.Failures[len(rep.Failures)-1]
	assert.Equal(t, "/tool_response", last.Pointer)
	assert.Contains(t, last.Error(), "/hookSpecificOutput/updatedToolOutput: member changed from")
	assert.Contains(t, rep.Failures[0].Error(), `declare it in hooktest.Options.OutputChanges: ""`)
}

func TestOutputOnlyRunNamesTheResponse(t *testing.T) {
	var fs []hooktest.Fixture
	for _, f := range hooktest.Fixtures() {
		if f.Event == hook.EventPostToolUse {
			fs = append(fs, f)
		}
	}
	silent := hook.HandlerFunc(func(context.Context, *hook.Event) (hook.Output, error) { return nil, nil })
	rep := hooktest.RunProperty(func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(silent, p), nil },
		&hooktest.Options{Fixtures: fs, Values: hooktest.RoomNames()[:1]})
	require.Error(t, rep.Err())
	assert.Contains(t, rep.Err().Error(), "point the run at the results of the tools the hook handles with hooktest.Options.Tools, each call with its Response")
	assert.NotContains(t, rep.Err().Error(), "PreToolUse")
}

package settings

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// typedEntries are one entry of each handler type with every member its
// type takes, keyed by the name of their golden file.
var typedEntries = map[string]Entry{
	"http": {Event: "PreToolUse", Matcher: "Bash", Handler: Handler{Type: TypeHTTP,
		URL: "http://127.0.0.1:8080/hook", If: "Bash(git *)", Timeout: 5, OnFailure: "block",
		Headers:        []Header{{"Authorization", "Bearer $HOOK_TOKEN"}, {"X-Team", "${TEAM}"}},
		AllowedEnvVars: []string{"HOOK_TOKEN", "TEAM"}, StatusMessage: "asking the guard"}},
	"mcp_tool": {Event: "PostToolUse", Matcher: "Edit|Write", Handler: Handler{Type: TypeMCPTool,
		Server: "linter", Tool: "lint_file", Input: jsontext.Value(`{"path": "${tool_input.file_path}", "level": 2, "n": 100000000000000000000001, "opts": {"fix": true, "skip": null}, "tags": ["a", 1]}`),
		Timeout: 30, OnFailure: "continue", StatusMessage: "linting"}},
	"prompt": {Event: "Stop", Handler: Handler{Type: TypePrompt,
		Prompt: "Did the tests pass? $ARGUMENTS", Timeout: 20, Model: "claude-sonnet-5", ContinueOnBlock: true, StatusMessage: "checking"}},
	"agent": {Event: "SubagentStop", Handler: Handler{Type: TypeAgent,
		Prompt: "Verify that unit tests ran and passed.", Timeout: 60, Model: "claude-haiku-5", StatusMessage: "verifying"}},
	"command": {Event: "PreToolUse", Matcher: "Bash", Handler: Handler{Command: "/usr/local/bin/rewake", Args: []string{},
		OnFailure: "block", StatusMessage: "guarding", AsyncRewake: true}},
}

// TestGoldenHandlerTypes installs one handler of each type into a settings
// file and compares the result byte for byte with its golden file; then
// checks that the handler reads back with every member, that installing it
// again changes nothing, and that uninstalling it gives back the original
// bytes, also when only its identifying members are given.
func TestGoldenHandlerTypes(t *testing.T) {
	base := filepath.Join("testdata", "handlers", "settings.json")
	orig, err := os.ReadFile(base)
	require.NoError(t, err)
	for name, e := range typedEntries {
		t.Run(name, func(t *testing.T) {
			out, changed, err := Add(orig, e)
			require.NoError(t, err)
			require.True(t, changed)
			golden := filepath.Join("testdata", "handlers", name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(golden, out, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(out), "install differs from %s (go test -update rewrites it)", golden)
			assertInsertOnly(t, orig, out)

			hs, err := Parse(out)
			require.NoError(t, err)
			var got *Hook
			for i := range hs {
				if hs[i].Handler.Same(e.Handler) {
					got = &hs[i]
				}
			}
			require.NotNil(t, got, "the installed handler is not read back")
			assert.Empty(t, got.Problems)
			assert.Equal(t, fields(e.Handler.Type)[0], got.Fields[0])
			for _, f := range got.Fields {
				assert.Contains(t, fields(e.Handler.Type), f, "written member %q is not one of the type's", f)
			}
			wantH := e.Handler
			if wantH.Type == "" {
				wantH.Type = TypeCommand
			}
			gotH := got.Handler
			if wantH.Input != nil {
				assert.JSONEq(t, string(wantH.Input), string(gotH.Input))
				wantH.Input, gotH.Input = nil, nil
			}
			assert.Equal(t, wantH, gotH)

			twice, changed, err := Add(out, e)
			require.NoError(t, err)
			assert.False(t, changed)
			assert.Equal(t, string(out), string(twice))

			ident := Entry{Event: e.Event, Matcher: e.Matcher, Handler: Handler{Type: e.Handler.Type, If: e.Handler.If,
				Command: e.Handler.Command, Args: e.Handler.Args, URL: e.Handler.URL, Server: e.Handler.Server,
				Tool: e.Handler.Tool, Prompt: e.Handler.Prompt}}
			back, n, err := Remove(out, ident)
			require.NoError(t, err)
			assert.Equal(t, 1, n)
			assert.Equal(t, string(orig), string(back), "uninstall did not restore the original bytes")
		})
	}
}

// TestTypedHandlersEveryShape installs every handler type into every file
// shape and removes them in two orders: both give back the original bytes.
func TestTypedHandlersEveryShape(t *testing.T) {
	names := []string{"http", "mcp_tool", "prompt", "agent", "command"}
	for _, file := range shapes(t) {
		if _, ok := emptied[filepath.Base(file)]; ok {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			orig, err := os.ReadFile(file)
			require.NoError(t, err)
			data := orig
			for _, n := range names {
				var changed bool
				data, changed, err = Add(data, typedEntries[n])
				require.NoError(t, err)
				require.True(t, changed, n)
			}
			for _, order := range [][]string{names, {"command", "agent", "prompt", "mcp_tool", "http"}} {
				back := data
				for _, n := range order {
					var k int
					back, k, err = Remove(back, typedEntries[n])
					require.NoError(t, err)
					require.Equal(t, 1, k, n)
				}
				assert.Equal(t, string(orig), string(back), "removal order %v", order)
			}
		})
	}
}

// TestTypedOptionsInPlace checks that installing an http handler that is
// there with other headers, allowed variables or timeout changes those
// members only, and that one left unset keeps the file's value.
func TestTypedOptionsInPlace(t *testing.T) {
	in := `{"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "https://h.example/x", "headers": {"A": "1"}, "timeout": 5}]}]}}`
	e := Entry{Event: "Stop", Handler: Handler{Type: TypeHTTP, URL: "https://h.example/x",
		Headers: []Header{{"A", "2"}}, AllowedEnvVars: []string{"T"}}}
	out, changed, err := Add([]byte(in), e)
	require.NoError(t, err)
	require.True(t, changed)
	assert.Equal(t, `{"hooks": {"Stop": [{"hooks": [{"type": "http", "url": "https://h.example/x", "headers": {"A": "2"}, "timeout": 5, "allowedEnvVars": ["T"]}]}]}}`, string(out))
	again, changed, err := Add(out, Entry{Event: "Stop", Handler: Handler{Type: TypeHTTP, URL: "https://h.example/x"}})
	require.NoError(t, err)
	assert.False(t, changed)
	assert.Equal(t, string(out), string(again))
	// Another URL is another registration.
	other, changed, err := Add(out, Entry{Event: "Stop", Handler: Handler{Type: TypeHTTP, URL: "https://h.example/y"}})
	require.NoError(t, err)
	assert.True(t, changed)
	hs, err := Parse(other)
	require.NoError(t, err)
	assert.Len(t, hs, 2)
}

// TestTypedEntryChecked checks that a handler missing its identifying
// member, or with a member of another type, is refused with the member's
// name.
func TestTypedEntryChecked(t *testing.T) {
	for _, c := range []struct {
		h   Handler
		msg string
	}{
		{Handler{Type: "webhook", URL: "x"}, `unknown handler type "webhook"`},
		{Handler{Type: TypeHTTP}, "no url"},
		{Handler{Type: TypeMCPTool, Server: "s"}, "needs a server and a tool"},
		{Handler{Type: TypeMCPTool, Server: "s", Tool: "t", Input: jsontext.Value(`[1]`)}, "one JSON object"},
		{Handler{Type: TypePrompt}, "no prompt"},
		{Handler{Type: TypeAgent, Prompt: "p", ContinueOnBlock: true}, `agent handler has no "continueOnBlock"`},
		{Handler{Type: TypePrompt, Prompt: "p", OnFailure: "block"}, `prompt handler has no "onFailure"`},
		{Handler{Type: TypeHTTP, URL: "u", Async: true}, `http handler has no "async"`},
		{Handler{Type: TypeHTTP, URL: "u", Command: "x"}, `http handler has no "command"`},
		{Handler{Type: TypeHTTP, URL: "u", OnFailure: "stop"}, `onFailure "stop"`},
		{Handler{Type: TypeHTTP, URL: "u", Timeout: -1}, "positive"},
		{Handler{Command: "x", URL: "u"}, `command handler has no "url"`},
		{Handler{Command: "x", Headers: []Header{}}, `command handler has no "headers"`},
		{Handler{Type: TypeHTTP, URL: "u", Headers: []Header{{"A", "\xff"}}}, "UTF-8"},
	} {
		out, changed, err := Add([]byte("{}"), Entry{Event: "Stop", Handler: c.h})
		if assert.Error(t, err, "%+v", c.h) {
			assert.Contains(t, err.Error(), c.msg)
		}
		assert.False(t, changed)
		assert.Equal(t, "{}", string(out))
	}
}

// fields returns the members Claude Code 2.1.336 reads for a handler of
// type typ, in the order of the SDK's settings type, or nil for a type it
// does not know. An empty typ is "command".
func fields(typ string) []string {
	if typ == "" {
		typ = TypeCommand
	}
	return slices.Clone(handlerFields[typ])
}

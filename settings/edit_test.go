package settings

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/shapes")

// goldenEntry is what the golden tests install: an exec-form handler with
// characters that need escaping.
var goldenEntry = Entry{Event: "PreToolUse", Matcher: "Bash", Handler: Handler{
	Command: "/opt/hooks/guard", Args: []string{"--policy", `say "hi" \ é`}, Timeout: 5,
}}

// emptied are the shapes whose removal is not the identity, and what it
// gives instead: a container the entry went into was empty already.
var emptied = map[string]string{
	"no-newline-empty-hooks.json": "{\n  \"model\": \"sonnet\"\n}",
}

func shapes(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/shapes/*.json")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 10)
	return files
}

// TestGoldenShapes installs one entry into settings files of many shapes
// and compares with the golden file; then checks that installing twice is
// installing once, that removal gives back the original bytes, and that
// the install only inserted bytes (nothing before or after them changed).
func TestGoldenShapes(t *testing.T) {
	for _, file := range shapes(t) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			orig, err := os.ReadFile(file)
			require.NoError(t, err)
			before, err := Parse(orig)
			require.NoError(t, err)

			out, changed, err := Add(orig, goldenEntry)
			require.NoError(t, err)
			require.True(t, changed)
			golden := strings.TrimSuffix(file, ".json") + ".golden"
			if *update {
				require.NoError(t, os.WriteFile(golden, out, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(out), "install differs from %s (go test -update rewrites it)", golden)

			assertInsertOnly(t, orig, out)
			require.NoError(t, jsontext.NewDecoder(bytes.NewReader(bytes.TrimPrefix(out, bom)), readOpts).SkipValue())

			after, err := Parse(out)
			require.NoError(t, err)
			require.Len(t, after, len(before)+1)
			var added *Hook
			for i := range after {
				if after[i].Handler.Same(goldenEntry.Handler) {
					added = &after[i]
				}
			}
			require.NotNil(t, added, "the installed handler is not listed")
			assert.Equal(t, "PreToolUse", added.Event)
			assert.Equal(t, "Bash", added.Matcher)
			assert.Equal(t, goldenEntry.Handler.Args, added.Handler.Args)
			assert.Equal(t, 5.0, added.Handler.Timeout)
			assert.Empty(t, added.Problems)
			assert.Equal(t, "{", string(out[lineOffset(out, added.Line)+added.Column-1]), "Line/Column do not point at the handler")

			twice, changed, err := Add(out, goldenEntry)
			require.NoError(t, err)
			assert.False(t, changed, "installing twice changed the file")
			assert.Equal(t, string(out), string(twice))

			back, n, err := Remove(out, goldenEntry)
			require.NoError(t, err)
			assert.Equal(t, 1, n)
			if w, ok := emptied[filepath.Base(file)]; ok {
				assert.Equal(t, w, string(back))
				return
			}
			assert.Equal(t, string(orig), string(back), "uninstall did not restore the original bytes")
		})
	}
}

// assertInsertOnly checks that out is orig with one run of bytes inserted
// and not a byte of orig changed or lost.
func assertInsertOnly(t *testing.T, orig, out []byte) {
	t.Helper()
	p := 0
	for p < len(orig) && p < len(out) && orig[p] == out[p] {
		p++
	}
	s := 0
	for s < len(orig)-p && s < len(out)-p && orig[len(orig)-1-s] == out[len(out)-1-s] {
		s++
	}
	assert.Empty(t, string(orig[p:len(orig)-s]), "bytes of the original changed")
}

func lineOffset(data []byte, line int) int {
	off := 0
	for l := 1; l < line; l++ {
		off += bytes.IndexByte(data[off:], '\n') + 1
	}
	return off
}

// TestAddStyle checks the layout of what is added in each style.
func TestAddStyle(t *testing.T) {
	e := Entry{Event: "Stop", Handler: Handler{Command: "echo done"}}
	cases := []struct{ name, in, want string }{
		{"empty file", "", "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"echo done\"\n          }\n        ]\n      }\n    ]\n  }\n}\n"},
		{"whitespace only", "\n\n", "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"echo done\"\n          }\n        ]\n      }\n    ]\n  }\n}\n\n"},
		{"compact", `{"a":1}`, `{"a":1,"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo done"}]}]}}`},
		{"compact spaced", `{"a": 1}`, `{"a": 1,"hooks": {"Stop": [{"hooks": [{"type": "command","command": "echo done"}]}]}}`},
		{"tab", "{\n\t\"a\": 1\n}", "{\n\t\"a\": 1,\n\t\"hooks\": {\n\t\t\"Stop\": [\n\t\t\t{\n\t\t\t\t\"hooks\": [\n\t\t\t\t\t{\n\t\t\t\t\t\t\"type\": \"command\",\n\t\t\t\t\t\t\"command\": \"echo done\"\n\t\t\t\t\t}\n\t\t\t\t]\n\t\t\t}\n\t\t]\n\t}\n}"},
		{"crlf", "{\r\n   \"a\": 1\r\n}\r\n", "{\r\n   \"a\": 1,\r\n   \"hooks\": {\r\n      \"Stop\": [\r\n         {\r\n            \"hooks\": [\r\n               {\r\n                  \"type\": \"command\",\r\n                  \"command\": \"echo done\"\r\n               }\r\n            ]\r\n         }\r\n      ]\r\n   }\r\n}\r\n"},
		{"existing group", `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"a"}]}]}}`, `{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"a"},{"type":"command","command":"echo done"}]}]}}`},
		{"empty group skipped", `{"hooks":{"Stop":[{"hooks":[]}]}}`, `{"hooks":{"Stop":[{"hooks":[]},{"hooks":[{"type":"command","command":"echo done"}]}]}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, changed, err := Add([]byte(c.in), e)
			require.NoError(t, err)
			assert.True(t, changed)
			assert.Equal(t, c.want, string(out))
			back, _, err := Remove(out, e)
			require.NoError(t, err)
			if c.in != "" && strings.TrimSpace(c.in) != "" {
				assert.Equal(t, c.in, string(back))
			} else {
				assert.Equal(t, "{}"+map[bool]string{true: "\n", false: c.in}[c.in == ""], string(back))
			}
		})
	}
}

// TestAddUpdatesOptionsInPlace checks that installing a registration that
// is there with other options changes those members only.
func TestAddUpdatesOptionsInPlace(t *testing.T) {
	in := "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\n            \"command\": \"x\",\n            \"type\": \"command\",\n            \"timeout\": 600,\n            \"once\": true\n          }\n        ]\n      }\n    ]\n  }\n}\n"
	e := Entry{Event: "Stop", Handler: Handler{Command: "x", Timeout: 30, StatusMessage: "checking"}}
	out, changed, err := Add([]byte(in), e)
	require.NoError(t, err)
	require.True(t, changed)
	want := strings.Replace(in, `"timeout": 600,`, `"timeout": 30,`, 1)
	want = strings.Replace(want, "\"once\": true\n", "\"once\": true,\n            \"statusMessage\": \"checking\"\n", 1)
	assert.Equal(t, want, string(out))
	// An option left unset keeps the file's value.
	e.Handler.Timeout, e.Handler.StatusMessage = 0, ""
	out2, changed, err := Add(out, e)
	require.NoError(t, err)
	assert.False(t, changed)
	assert.Equal(t, want, string(out2))
	hs, err := Parse(out2)
	require.NoError(t, err)
	require.Len(t, hs, 1)
	assert.Equal(t, "checking", hs[0].Handler.StatusMessage)
	assert.Equal(t, 30.0, hs[0].Handler.Timeout)
}

// TestRemove checks removal of every registration that is the same, and
// that other handlers and groups with extra members stay.
func TestRemove(t *testing.T) {
	in := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"a"},{"type":"command","command":"b","timeout":9}]},{"matcher":"Bash","note":"mine","hooks":[{"type":"command","command":"b"}]},{"matcher":"Read","hooks":[{"type":"command","command":"b"}]}]}}`
	out, n, err := Remove([]byte(in), Entry{Event: "PreToolUse", Matcher: "Bash", Handler: Handler{Command: "b"}})
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"a"}]},{"matcher":"Bash","note":"mine","hooks":[]},{"matcher":"Read","hooks":[{"type":"command","command":"b"}]}]}}`, string(out))
	same, n, err := Remove(out, Entry{Event: "PreToolUse", Matcher: "Bash", Handler: Handler{Command: "b"}})
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.Equal(t, string(out), string(same))
	// Exec form and shell form are different registrations.
	_, n, err = Remove([]byte(in), Entry{Event: "PreToolUse", Matcher: "Bash", Handler: Handler{Command: "a", Args: []string{}}})
	require.NoError(t, err)
	assert.Zero(t, n)
}

// TestRefused checks that files Claude Code cannot read, and hooks of the
// wrong shape, are errors at the right line and column, and that a file on
// disk is then left untouched.
func TestRefused(t *testing.T) {
	cases := []struct{ name, in, where, msg string }{
		{"line comment", "{\n  // my hooks\n  \"hooks\": {}\n}\n", "2:3", "comments are not JSON"},
		{"block comment", "{\n  \"a\": 1, /* x */\n}", "2:11", "comments are not JSON"},
		{"trailing comma", "{\n  \"a\": 1,\n}\n", "2:9", "invalid character ','"},
		{"duplicate name", "{\"a\": 1,\n \"a\": 2}", "2:2", "duplicate"},
		{"truncated", "{\n  \"hooks\": {", "2:13", "unexpected EOF"},
		{"two values", "{} {}", "1:4", ""},
		{"not an object", "[1]", "1:1", "one JSON object"},
		{"hooks array", "{\n  \"hooks\": []\n}", "2:12", `"hooks" must be an object`},
		{"event object", "{\"hooks\": {\n  \"Stop\": {\"hooks\": []}}}", "2:11", "hooks.Stop must be an array"},
		{"group string", "{\"hooks\": {\"Stop\": [\n \"x\"]}}", "2:2", "hooks.Stop[0] must be a matcher group"},
		{"no handlers", "{\"hooks\": {\"Stop\": [\n {\"matcher\": \"\"}]}}", "2:2", `has no "hooks" array`},
		{"matcher number", "{\"hooks\": {\"Stop\": [{\"matcher\": 1, \"hooks\": []}]}}", "1:33", "matcher must be a string"},
		{"handler string", "{\"hooks\": {\"Stop\": [{\"hooks\": [\"echo\"]}]}}", "1:32", "must be a handler object"},
		{"unicode column", "{\"é\": 1, \"x\": tru}", "1:18", "in literal true"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.in))
			var se *SyntaxError
			require.ErrorAs(t, err, &se)
			assert.Contains(t, se.Error(), "settings:"+c.where+": ")
			assert.Contains(t, se.Msg, c.msg)

			p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".json")
			require.NoError(t, os.WriteFile(p, []byte(c.in), 0o600))
			_, err = Install(p, goldenEntry)
			require.ErrorAs(t, err, &se)
			assert.Equal(t, p+":"+c.where+": "+se.Msg, err.Error())
			got, _ := os.ReadFile(p)
			assert.Equal(t, c.in, string(got), "a refused file was changed")
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				assert.NotContains(t, e.Name(), ".tmp-", "a temporary file was left behind")
				assert.NotContains(t, e.Name(), ".lock", "a lock file was left behind")
			}
		})
	}
}

// TestHandlerProblems checks that fields of the wrong type are listed as
// problems with their position.
func TestHandlerProblems(t *testing.T) {
	hs, err := Parse([]byte("{\"hooks\": {\"Stop\": [{\"hooks\": [\n{\"type\": \"command\", \"command\": \"x\", \"timeout\": \"5\", \"async\": 1, \"args\": [1]}]}]}}"))
	require.NoError(t, err)
	require.Len(t, hs, 1)
	assert.Equal(t, []string{
		`2:48: "timeout" must be a number of seconds, found a string`,
		`2:62: "async" must be true or false, found a number`,
		`2:74: "args[]" must be a string, found a number`,
	}, hs[0].Problems)
	assert.Equal(t, 2, hs[0].Line)
	assert.Equal(t, 1, hs[0].Column)
}

// TestEntryChecked checks that entries that cannot be written are refused.
func TestEntryChecked(t *testing.T) {
	for _, e := range []Entry{
		{Handler: Handler{Command: "x"}},
		{Event: "Stop"},
		{Event: "Stop", Handler: Handler{Type: "http", Command: "x"}},
		{Event: "Stop", Handler: Handler{Command: "x", Timeout: -1}},
		{Event: "Stop", Handler: Handler{Command: "x", Shell: "zsh"}},
		{Event: "Stop", Handler: Handler{Command: "x", OnFailure: "ignore"}},
		{Event: "Stop", Handler: Handler{Command: "\xff"}},
	} {
		out, changed, err := Add([]byte("{}"), e)
		assert.Error(t, err, "%+v", e)
		assert.False(t, changed)
		assert.Equal(t, "{}", string(out))
	}
}

// TestAddRemoveAnyOrder installs several entries into every shape, one
// after another, checks each install once more changes nothing, then
// removes them in the same and in the reverse order: both give back the
// original bytes.
func TestAddRemoveAnyOrder(t *testing.T) {
	entries := []Entry{
		{Event: "PreToolUse", Matcher: "Bash", Handler: Handler{Command: "/a", Args: []string{"x"}}},
		{Event: "PreToolUse", Matcher: "Bash", Handler: Handler{Command: `C:\hooks\b.exe`, Args: []string{}}},
		{Event: "Stop", Handler: Handler{Command: "echo 'done' | wall", Timeout: 2.5, Async: true}},
		{Event: "PreToolUse", Matcher: "Read", Handler: Handler{Command: "/c", If: "Read(*.env)", OnFailure: "block"}},
		{Event: "Notification", Matcher: "idle_prompt", Handler: Handler{Command: "/d", StatusMessage: "ü \u2028 \"q\""}},
		{Event: "PostToolUse", Matcher: "Edit|Write", Handler: Handler{Command: "gofmt -w \"$CLAUDE_PROJECT_DIR\""}},
	}
	for _, file := range shapes(t) {
		if _, ok := emptied[filepath.Base(file)]; ok {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			orig, err := os.ReadFile(file)
			require.NoError(t, err)
			before, err := Parse(orig)
			require.NoError(t, err)
			data := orig
			for _, e := range entries {
				var changed bool
				data, changed, err = Add(data, e)
				require.NoError(t, err)
				require.True(t, changed)
				again, changed, err := Add(data, e)
				require.NoError(t, err)
				require.False(t, changed)
				require.Equal(t, string(data), string(again))
			}
			hs, err := Parse(data)
			require.NoError(t, err)
			require.Len(t, hs, len(before)+len(entries))
			for _, order := range [][]int{{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {1, 3, 5, 0, 2, 4}} {
				back := data
				for _, i := range order {
					var n int
					back, n, err = Remove(back, entries[i])
					require.NoError(t, err)
					require.Equal(t, 1, n, "entry %d", i)
				}
				assert.Equal(t, string(orig), string(back), "removal order %v", order)
			}
		})
	}
}

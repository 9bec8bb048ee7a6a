package settings

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roundTripFiles are starting files for the round trip: no file, empty
// and whitespace-only files, empty objects of each layout, a pre-existing
// empty "hooks" object or event array, other hooks, and the layouts and
// encodings the edit keeps (CRLF, tabs, compact, no final newline, a
// byte order mark, big numbers, escapes). nil is a file that does not
// exist.
var roundTripFiles = [][]byte{
	nil,
	[]byte(""),
	[]byte("\n"),
	[]byte("  \r\n"),
	[]byte("\xef\xbb\xbf"),
	[]byte("\xef\xbb\xbf\n"),
	[]byte("{}"),
	[]byte("{}\n"),
	[]byte("{\n}\n"),
	[]byte("{ }"),
	[]byte("\xef\xbb\xbf{}\r\n"),
	[]byte(`{"hooks":{}}`),
	[]byte("{\n  \"hooks\": {}\n}\n"),
	[]byte("{\n  \"hooks\": {\n  }\n}\n"),
	[]byte("{\n  \"model\": \"opus\",\n  \"hooks\": { }\n}\n"),
	[]byte("{\n  \"hooks\": {},\n  \"model\": \"opus\"\n}\n"),
	[]byte(`{"hooks":{"PreToolUse":[]}}`),
	[]byte("{\n  \"hooks\": {\n    \"PreToolUse\": [\n    ]\n  }\n}\n"),
	[]byte("{\r\n\t\"hooks\": {\r\n\t\t\"PreToolUse\": [],\r\n\t\t\"Stop\": []\r\n\t}\r\n}"),
	[]byte(`{"hooks":{"Stop":[]}}`),
	[]byte("{\n  \"model\": \"opus\"\n}\n"),
	[]byte("{\r\n    \"permissions\": {\"allow\": [\"Bash(ls)\"]},\r\n    \"n\": 100000000000000000000001\r\n}"),
	[]byte("{\n\t\"hooks\": {\n\t\t\"PreToolUse\": [\n\t\t\t{\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"/opt/edit\"}]}\n\t\t]\n\t}\n}\n"),
	[]byte("{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"/opt/other\",\"timeout\":5}]}],\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"x\"}]}]}}"),
	[]byte("{\n  \"description\": \"caf\\u00e9\",\n  \"hooks\": {\n    \"SessionStart\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"echo hi\"\n          }\n        ]\n      }\n    ]\n  }\n}"),
}

// roundTripEntries are the entries installed into each file.
var roundTripEntries = []Entry{
	{Event: "PreToolUse", Matcher: "Bash", Handler: Handler{Command: "/opt/guard"}},
	{Event: "PreToolUse", Handler: Handler{Command: "/opt/guard", Args: []string{"--strict"}, Timeout: 5}},
	{Event: "Stop", Handler: Handler{Command: "/opt/stop", Shell: "bash", StatusMessage: "checking"}},
	{Event: "PostToolUse", Matcher: "Edit|Write", Handler: Handler{Type: TypeHTTP, URL: "https://example.com/h", OnFailure: "block"}},
	{Event: "UserPromptSubmit", Handler: Handler{Type: TypePrompt, Prompt: "Is $ARGUMENTS safe?", Model: "haiku"}},
}

// TestRoundTripKeeping checks, for every starting file and entry, that
// RemoveKeeping with the containers Containers reported before Add gives
// back the original bytes (nil for no file), and counts the round trips
// where Remove alone does not (it cannot tell a pre-existing empty
// container, or file, from one Add made).
func TestRoundTripKeeping(t *testing.T) {
	differ, total := 0, 0
	for fi, orig := range roundTripFiles {
		for _, e := range roundTripEntries {
			name := fmt.Sprintf("file %d %q / %s %s", fi, orig, e.Event, e.Handler.String())
			cs, err := Containers(orig, e)
			require.NoError(t, err, name)
			require.Len(t, cs, 4, name)
			out, changed, err := Add(orig, e)
			require.NoError(t, err, name)
			require.True(t, changed, name)
			back, n, err := RemoveKeeping(out, e, cs)
			require.NoError(t, err, name)
			assert.Equal(t, 1, n, name)
			assert.Equal(t, orig == nil, back == nil, "%s: nil is no file", name)
			assert.Equal(t, string(orig), string(back), name)
			plain, _, err := Remove(out, e)
			require.NoError(t, err, name)
			total++
			if !bytes.Equal(plain, orig) || orig == nil {
				differ++
			}
			// Kept containers are harmless to a file that no longer has
			// them: RemoveKeeping of anything else is Remove.
			other := Entry{Event: "Stop", Handler: Handler{Command: "/opt/other-stop"}}
			withOther, _, err := Add(out, other)
			require.NoError(t, err)
			a, _, _ := RemoveKeeping(withOther, other, cs)
			b, _, _ := Remove(withOther, other)
			if !(e.Event == "Stop" && cs[3].Found == FoundEmpty) {
				assert.Equal(t, string(b), string(a), "%s: removing another entry", name)
			}
		}
	}
	t.Logf("Remove alone differs from the original in %d of %d round trips; RemoveKeeping in none", differ, total)
}

// TestContainers checks what Containers reports on the way to an entry.
func TestContainers(t *testing.T) {
	e := Entry{Event: "Stop", Handler: Handler{Command: "x"}}
	for _, c := range []struct {
		data string
		nil  bool
		want []string
	}{
		{"", true, []string{"file missing", "root missing", "hooks missing", "event missing"}},
		{" \n", false, []string{"file empty \" \\n\"", "root missing", "hooks missing", "event missing"}},
		{"{ }", false, []string{"file full", "root empty \" \"", "hooks missing", "event missing"}},
		{`{"hooks":{}}`, false, []string{"file full", "root full", "hooks empty \"\"", "event missing"}},
		{`{"hooks":{"Stop":[ ]}}`, false, []string{"file full", "root full", "hooks full", "event empty \" \""}},
		{`{"hooks":{"Stop":[{"hooks":[]}]}}`, false, []string{"file full", "root full", "hooks full", "event full"}},
	} {
		var data []byte
		if !c.nil {
			data = []byte(c.data)
		}
		cs, err := Containers(data, e)
		require.NoError(t, err)
		var got []string
		for _, k := range cs {
			s := k.Level + " " + k.Found
			if k.Found == FoundEmpty {
				s += fmt.Sprintf(" %q", k.Inner)
			}
			got = append(got, s)
			if k.Level == LevelEvent {
				assert.Equal(t, "Stop", k.Event)
			}
		}
		assert.Equal(t, c.want, got, "%q", c.data)
	}
	_, err := Containers([]byte("{"), e)
	assert.Error(t, err)
}

// TestRemoveKeepingIgnoresBadInner checks that a kept container whose
// bytes are not whitespace (a corrupt record) is not written.
func TestRemoveKeepingIgnoresBadInner(t *testing.T) {
	e := Entry{Event: "Stop", Handler: Handler{Command: "x"}}
	out, _, err := Add([]byte(`{"hooks":{}}`), e)
	require.NoError(t, err)
	back, n, err := RemoveKeeping(out, e, []Container{{Level: LevelHooks, Found: FoundEmpty, Inner: `"a": 1`},
		{Level: LevelFile, Found: FoundEmpty, Inner: "{}"}})
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, "{}", string(back))
}

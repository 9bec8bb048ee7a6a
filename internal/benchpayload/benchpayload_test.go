package benchpayload_test

import (
	"bytes"
	stdjson "encoding/json"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/benchpayload"
	"github.com/gohooks/hook/internal/jsonopts"
)

// TestPayloads checks that every payload is one compact, valid JSON
// object of the size its name says, for the tool bench/run.sh expects it
// to be for, with the tool_input the benchmarks' targets are stated on.
func TestPayloads(t *testing.T) {
	want := map[string]struct {
		min, max int    // the event's size in bytes
		tool     string // tool_name
		members  int    // tool_input's member count
	}{
		"mcp-300B":    {300, 300, "mcp__probe__listen_here", 1},
		"write-145KB": {145 << 10, 145<<10 + 64, "Write", 2},
		"write-7MB":   {7 << 20, 7<<20 + 64, "Write", 2},
		"mcp-7MB":     {72 << 20 / 10, 72<<20/10 + 64, "mcp__probe__listen_here", 2},
		"mcp-50k":     {710 << 10, 712 << 10, "mcp__probe__listen_here", 50_001},
	}
	all := benchpayload.All()
	require.Len(t, all, len(want), "every payload has its expectations here")
	for _, p := range all {
		w, ok := want[p.Name]
		require.True(t, ok, "unexpected payload %s", p.Name)
		assert.GreaterOrEqual(t, len(p.Data), w.min, p.Name)
		assert.LessOrEqual(t, len(p.Data), w.max, p.Name)

		var ev struct {
			Event     string         `json:"hook_event_name"`
			Cwd       string         `json:"cwd"`
			Tool      string         `json:"tool_name"`
			ToolInput jsontext.Value `json:"tool_input"`
		}
		require.NoError(t, json.Unmarshal(p.Data, &ev, jsonopts.Lenient()), p.Name)
		assert.Equal(t, "PreToolUse", ev.Event, p.Name)
		assert.Equal(t, benchpayload.Cwd, ev.Cwd, p.Name)
		assert.Equal(t, w.tool, ev.Tool, p.Name)

		compact := bytes.Clone(p.Data)
		v := jsontext.Value(compact)
		require.NoError(t, v.Compact(), p.Name)
		assert.True(t, bytes.Equal(p.Data, v), "%s is compact", p.Name)

		dec := jsontext.NewDecoder(bytes.NewReader(ev.ToolInput), jsonopts.Lenient())
		tok, err := dec.ReadToken()
		require.NoError(t, err, p.Name)
		require.Equal(t, jsontext.Kind('{'), tok.Kind(), p.Name)
		n := 0
		for dec.PeekKind() != '}' {
			_, err := dec.ReadToken()
			require.NoError(t, err, p.Name)
			require.NoError(t, dec.SkipValue(), p.Name)
			n++
		}
		assert.Equal(t, w.members, n, "members of %s's tool_input", p.Name)
	}
}

// TestSpacedForms checks that the spaced and indented forms of every
// payload are valid JSON with whitespace between tokens that compacts back
// to the payload byte for byte: the strings are kept as they are.
func TestSpacedForms(t *testing.T) {
	for _, p := range append(benchpayload.All(), benchpayload.Payload{Name: "nested", Data: []byte(`{"a":[1,{"b":"x\"y\\","c":[]},{}],"d":{"e":null}}`)}) {
		for name, form := range map[string][]byte{"spaced": benchpayload.Spaced(p.Data), "indented": benchpayload.Indented(p.Data)} {
			assert.Greater(t, len(form), len(p.Data), "%s %s", p.Name, name)
			require.True(t, jsontext.Value(form).IsValid(jsonopts.Lenient()), "%s %s: %.200s", p.Name, name, form)
			var b bytes.Buffer
			require.NoError(t, stdjson.Compact(&b, form), "%s %s", p.Name, name)
			assert.True(t, bytes.Equal(p.Data, b.Bytes()), "%s %s compacts to the payload", p.Name, name)
		}
	}
	assert.Contains(t, string(benchpayload.Indented([]byte(`{"a":{"b":[1]}}`))), "{\r\n  \"a\": {\r\n  \t\"b\": [\r\n  \t\t1\r\n  \t]\r\n  }\r\n}")
	assert.Equal(t, `{"a": [1, "x, y: z"], "b": {}}`, string(benchpayload.Spaced([]byte(`{"a":[1,"x, y: z"],"b":{}}`))))
}

package e2e_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/e2e"
	"github.com/gohooks/hook/hooktest"
)

// fingerprintOf is what examples/fingerprint adds: the first 16 hex digits
// of the SHA-256 of the session's working directory.
func fingerprintOf(dir string) string {
	sum := sha256.Sum256([]byte(dir))
	return hex.EncodeToString(sum[:])[:16]
}

// trickyRooms returns the string values of hooktest's corpus.
func trickyRooms() []hooktest.Tricky {
	var out []hooktest.Tricky
	for _, tv := range hooktest.TrickyValues() {
		if len(tv.JSON) > 0 && tv.JSON[0] == '"' {
			out = append(out, tv)
		}
	}
	return out
}

// TestFingerprintTrickyRooms has the model call listen_here once for each
// tricky room name, with examples/fingerprint as the PreToolUse hook. The
// MCP server must receive every room exactly as the model wrote it (the
// same JavaScript string, and the very bytes JSON.stringify writes for it)
// plus the fingerprint of the project folder; the hook's updatedInput must
// keep every byte of the tool_input it got except the fingerprint it adds.
func TestFingerprintTrickyRooms(t *testing.T) {
	needE2E(t)
	rooms := trickyRooms()
	require.GreaterOrEqual(t, len(rooms), 20, "string values in hooktest.TrickyValues")
	const perRun = 10
	for start := 0; start < len(rooms); start += perRun {
		batch := rooms[start:min(start+perRun, len(rooms))]
		t.Run(fmt.Sprintf("rooms%d-%d", start+1, start+len(batch)), func(t *testing.T) {
			t.Parallel()
			checkFingerprintRooms(t, batch)
		})
	}
}

func checkFingerprintRooms(t *testing.T, rooms []hooktest.Tricky) {
	var script e2e.Script
	for _, room := range rooms {
		script.Turns = append(script.Turns, e2e.Turn{{Tool: e2e.ProbeTool, Input: `{"room":` + string(room.JSON) + `}`}})
	}
	r := run(t, e2e.Case{
		Script: script,
		Hooks:  []e2e.Hook{{Event: "PreToolUse", Matcher: e2e.ProbeTool, Command: hook("fingerprint")}},
	})
	calls, err := r.Probe()
	require.NoError(t, err)
	pre, err := r.CapturesOf("fingerprint", "PreToolUse")
	require.NoError(t, err)
	require.Len(t, calls, len(rooms), "calls the MCP server received")
	require.Len(t, pre, len(rooms), "PreToolUse hook runs")
	wantPrint := fingerprintOf(r.Project)
	for i, room := range rooms {
		t.Run(room.Name, func(t *testing.T) {
			want, err := e2e.ParseJSString(room.JSON)
			require.NoError(t, err)
			wantBytes := want.Stringify()

			// What the hook got and answered.
			h := pre[i]
			assert.Equal(t, 0, h.Code, "hook exit code; stderr %s", h.Err)
			in, ok := h.Field("tool_input")
			require.True(t, ok, "tool_input in the payload")
			inRoom, ok := e2e.Member(in, "room")
			require.True(t, ok, "room in the payload's tool_input")
			assert.Equal(t, string(wantBytes), string(inRoom), "room bytes in the hook's payload")
			upd, ok := e2e.Path(h.Out, "hookSpecificOutput", "updatedInput")
			require.True(t, ok, "updatedInput in the hook's answer %s", h.Out)
			assert.NoError(t, hooktest.CheckPreserved(in, upd, "fingerprint"))

			// What the MCP server got.
			c := calls[i]
			assert.Equal(t, "listen_here", c.Name)
			gotRoom, ok := e2e.Member(c.Arguments, "room")
			require.True(t, ok, "room in the server's arguments %s", c.Arguments)
			got, err := e2e.ParseJSString(gotRoom)
			require.NoError(t, err)
			assert.True(t, want.Equal(got), "room the server got: %q, want %q", got.String(), want.String())
			assert.Equal(t, string(wantBytes), string(gotRoom), "room bytes the server got")
			fp, ok := e2e.Member(c.Arguments, "fingerprint")
			require.True(t, ok, "fingerprint in the server's arguments %s", c.Arguments)
			assert.Equal(t, `"`+wantPrint+`"`, string(fp))
			assert.NoError(t, hooktest.CheckPreserved(upd, c.Arguments), "the server got the hook's updatedInput")

			res, ok := r.API.ToolResult(e2e.CallID(i + 1))
			require.True(t, ok, "tool_result for call %d", i+1)
			assert.False(t, res.IsError, "tool_result: %s", res.ContentText())
			assert.Equal(t, "listening", res.ContentText())
		})
	}
}

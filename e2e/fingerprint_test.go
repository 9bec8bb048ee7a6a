package e2e_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/claudetest"
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

// listenServer is the MCP server of the fingerprint runs: listen_here
// {room, fingerprint}.
var listenServer = claudetest.MCPServer{Name: "probe", Tools: []claudetest.MCPTool{{
	Name:        "listen_here",
	Description: "Register a listener in a room.",
	Schema:      `{"type":"object","properties":{"room":{"type":"string"},"fingerprint":{"type":"string"}}}`,
	Reply:       "listening",
}}}

// TestFingerprintTrickyRooms has the model call listen_here once for each
// tricky room name, with examples/fingerprint as the PreToolUse hook. The
// MCP server must receive every room exactly as the model wrote it (the
// same JavaScript string, and the very bytes JSON.stringify writes for it)
// plus the fingerprint of the project folder; the hook's updatedInput must
// keep every byte of the tool_input it got except the fingerprint it adds.
func TestFingerprintTrickyRooms(t *testing.T) {
	claudetest.Need(t)
	rooms := trickyRooms()
	require.GreaterOrEqual(t, len(rooms), 20, "string values in hooktest.TrickyValues")
	fingerprint := hooktest.BuildGo(t, "../examples/fingerprint")
	const perRun = 10
	for start := 0; start < len(rooms); start += perRun {
		batch := rooms[start:min(start+perRun, len(rooms))]
		t.Run(fmt.Sprintf("rooms%d-%d", start+1, start+len(batch)), func(t *testing.T) {
			t.Parallel()
			checkFingerprintRooms(t, fingerprint, batch)
		})
	}
}

func checkFingerprintRooms(t *testing.T, fingerprint string, rooms []hooktest.Tricky) {
	s := claudetest.Session{
		MCP:   []claudetest.MCPServer{listenServer},
		Hooks: []claudetest.Hook{{Event: "PreToolUse", Matcher: "mcp__probe__listen_here", Command: []string{fingerprint}}},
	}
	for _, room := range rooms {
		s.Turns = append(s.Turns, claudetest.Turn{claudetest.MCP("probe", "listen_here", `{"room":`+string(room.JSON)+`}`)})
	}
	r := claudetest.Run(t, s)
	checkRoomCalls(t, r, "fingerprint", rooms, func(t *testing.T, h claudetest.HookRun) {
		assert.Equal(t, 0, h.Code, "hook exit code; stderr %s", h.Err)
	})
}

// checkRoomCalls checks the run r of one call per room, each answered by
// the hook named hook with the fingerprint of the project folder added:
// the hook ran once per call (ran checks how it ended, by transport),
// got the room byte for byte and kept every member, and the MCP server got
// the room byte for byte, the fingerprint and the hook's updatedInput,
// and the model was told the server's answer.
func checkRoomCalls(t *testing.T, r *claudetest.Result, hook string, rooms []hooktest.Tricky, ran func(t *testing.T, h claudetest.HookRun)) {
	t.Helper()
	hookRuns(t, r, hook, "PreToolUse", len(rooms))
	require.Len(t, r.MCPCalls, len(rooms), "calls the MCP server received")
	wantPrint := fingerprintOf(r.Project)
	for i, room := range rooms {
		t.Run(room.Name, func(t *testing.T) {
			want, err := ParseJSString(room.JSON)
			require.NoError(t, err)
			wantBytes := want.Stringify()
			call := r.Call(i + 1)

			// What the hook got and answered.
			h, ok := call.Hook(hook, "PreToolUse")
			require.True(t, ok, "the hook did not run for call %d", i+1)
			ran(t, h)
			in := input(t, h, "tool_input")
			assert.Equal(t, string(wantBytes), string(field(t, in, "room")), "room bytes in the hook's payload")
			upd := output(t, h, "hookSpecificOutput", "updatedInput")
			assert.NoError(t, hooktest.CheckPreserved(in, upd, "fingerprint"))

			// What the MCP server got.
			require.NotNil(t, call.MCP, "the MCP server got no call %d", i+1)
			assert.Equal(t, "listen_here", call.MCP.Tool)
			gotRoom := field(t, call.MCP.Arguments, "room")
			got, err := ParseJSString(gotRoom)
			require.NoError(t, err)
			assert.True(t, want.Equal(got), "room the server got: %q, want %q", got.String(), want.String())
			assert.Equal(t, string(wantBytes), string(gotRoom), "room bytes the server got")
			assert.Equal(t, `"`+wantPrint+`"`, string(field(t, call.MCP.Arguments, "fingerprint")))
			assert.NoError(t, hooktest.CheckPreserved(upd, call.MCP.Arguments), "the server got the hook's updatedInput")

			res := told(t, r, i+1)
			assert.False(t, res.IsError, "tool_result: %s", res.Text)
			assert.Equal(t, "listening", res.Text)
		})
	}
}

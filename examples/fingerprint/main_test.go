package main

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

func TestFingerprint(t *testing.T) {
	// The first 16 hex digits of sha256sum's output for the same bytes.
	assert.Equal(t, "6689668a49dc648b", Fingerprint("/home/dev/acme-api"))
	assert.Equal(t, "e3b0c44298fc1c14", Fingerprint(""))
	assert.NotEqual(t, Fingerprint("/a"), Fingerprint("/b"))
}

func TestExampleFile(t *testing.T) {
	b, err := os.ReadFile("testdata/listen_here.json")
	require.NoError(t, err)
	rec := hooktest.Record(Handler(), b)
	require.NoError(t, rec.Err())
	assert.Equal(t, hook.Allow, rec.PermissionDecision)
	assert.Equal(t, `{"room":"Ops \"war room\" \\ Zürich\tnight","fingerprint":"`+Fingerprint("/home/dev/acme-api")+`"}`, string(rec.UpdatedInput))
}

// TestEveryRoomSurvives puts each tricky value of the corpus in the room
// (and next to it) and checks that the update keeps it byte for byte and
// adds only the fingerprint.
func TestEveryRoomSurvives(t *testing.T) {
	for _, tv := range hooktest.TrickyValues() {
		in := `{"room":` + string(tv.JSON) + `,"extra":` + string(tv.JSON) + `}`
		p := hooktest.WithField(hooktest.NewPreToolUse("mcp__probe__listen_here", in), "cwd", "/srv/rooms/"+tv.Name)
		rec := hooktest.Record(Handler(), p)
		require.NoError(t, rec.Err(), tv.Name)
		assert.Equal(t, hook.Allow, rec.PermissionDecision, tv.Name)
		assert.NoError(t, hooktest.CheckPreserved(jsontext.Value(in), rec.UpdatedInput, "fingerprint"), tv.Name)
		fp, ok := hooktest.Field(rec.UpdatedInput, "fingerprint")
		require.True(t, ok, tv.Name)
		assert.Equal(t, `"`+Fingerprint("/srv/rooms/"+tv.Name)+`"`, string(fp), tv.Name)
	}
}

func TestProperty(t *testing.T) {
	rep := hooktest.CheckHandler(t, Handler(), &hooktest.Options{Changes: []string{"fingerprint"}})
	assert.Greater(t, rep.Updates, 10, "listen_here fixtures are updated")
}

func TestOtherToolsAndEvents(t *testing.T) {
	for _, p := range [][]byte{
		hooktest.NewPreToolUse(hook.ToolBash, `{"command":"ls"}`),
		hooktest.NewPreToolUse("mcp__probe__other_tool", `{"room":"x"}`),
		hooktest.NewPreToolUse("listen_here", `{"room":"x"}`), // not an MCP tool name
		hooktest.NewEvent(hook.EventStop),
	} {
		rec := hooktest.Record(Handler(), p)
		require.NoError(t, rec.Err())
		assert.Equal(t, 0, rec.Code)
		assert.Empty(t, rec.Stdout)
	}
}

// TestBuiltBinary runs the example as the program Claude Code would start.
func TestBuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the example; skipped with -short")
	}
	bin := hooktest.BuildGo(t, ".")
	b, err := os.ReadFile("testdata/listen_here.json")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rec, err := (&hooktest.Command{Path: bin}).Run(ctx, b)
	require.NoError(t, err)
	require.NoError(t, rec.Err())
	assert.Equal(t, 0, rec.Code)
	assert.Equal(t, `{"room":"Ops \"war room\" \\ Zürich\tnight","fingerprint":"`+Fingerprint("/home/dev/acme-api")+`"}`, string(rec.UpdatedInput))
}

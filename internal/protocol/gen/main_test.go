package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/protocol"
)

// TestCommittedFileIsFresh: the root package's events_gen.go is what the
// table generates (CI also runs go generate and checks the tree).
func TestCommittedFileIsFresh(t *testing.T) {
	want, err := generate(protocol.Events)
	require.NoError(t, err)
	got, err := os.ReadFile("../../../events_gen.go")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "run `go generate ./...` from the module root")
}

// TestAddingAnEvent: a new row in the table yields its constant, its
// place in the lists and its adapter.
func TestAddingAnEvent(t *testing.T) {
	events := append(append([]protocol.Event(nil), protocol.Events...), protocol.Event{
		Name: "ArtifactSaved", Fires: "after an artifact was saved", Matcher: "artifact_kind", CanBlock: true, Block: protocol.BlockDecision,
	})
	src, err := generate(events)
	require.NoError(t, err)
	s := string(src)
	for _, want := range []string{
		"// EventArtifactSaved fires after an artifact was saved.\n\tEventArtifactSaved = \"ArtifactSaved\"",
		"\tEventArtifactSaved,\n}",
		"EventPreSkillShellCommand, EventArtifactSaved:\n\t\treturn true", // knownEvent
		"case EventArtifactSaved:\n\t\treturn \"artifact_kind\"",
		"case EventArtifactSaved:\n\t\treturn blockDecision",
		"type ArtifactSavedFunc func(ctx context.Context, e *ArtifactSaved) (*ArtifactSavedOutput, error)",
		"// ServeHook decodes an ArtifactSaved event and calls f.",
		"return serveTyped(ctx, ev, EventArtifactSaved, f)",
		"func (ArtifactSavedFunc) adapterEvent() string { return EventArtifactSaved }",
		"hook events of Claude Code\n// 2.1.332", // the counts follow the table
	} {
		assert.Contains(t, s, want)
	}
	assert.Contains(t, s, "eventNames returns the names of the 35 hook events")
	// canBlock lists it too.
	i := strings.Index(s, "func canBlock")
	assert.Contains(t, s[i:i+800], "EventArtifactSaved")
}

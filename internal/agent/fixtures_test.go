package agent

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/rawjson"
)

func TestCodexFixturesCoverEveryEvent(t *testing.T) {
	fx := CodexFixtures()
	events := map[string]bool{}
	for name, raw := range fx {
		require.Equal(t, Codex.String(), Detect(raw).String(), name)
		ms, err := rawjson.Members(raw)
		require.NoError(t, err, name)
		events[stringMember(ms, "hook_event_name")] = true
	}
	for ev := range codexOutputs() {
		assert.True(t, events[ev], "a fixture for %s", ev)
	}
	assert.True(t, events["SessionEnd"], "a fixture for SessionEnd")
	for _, name := range []string{"pre-tool-use-observed", "pre-tool-use-apply-patch", "pre-tool-use-mcp"} {
		assert.Contains(t, fx, name)
	}
	mcp, err := rawjson.Members(fx["pre-tool-use-mcp"])
	require.NoError(t, err)
	in, ok := rawjson.Find(mcp, "tool_input")
	require.True(t, ok)
	args, err := rawjson.Members(in.Value)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(args), 3, "an MCP input with several members to keep")
}

func TestCodexFixturesAreCopies(t *testing.T) {
	a := CodexFixtures()
	a["pre-tool-use"][0] = 'x'
	b := CodexFixtures()
	assert.Equal(t, byte('{'), b["pre-tool-use"][0])
}

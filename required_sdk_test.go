package hook

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/sdkdecl"
)

// TestRequiredMembersMatchSDK: RequiredMembers of every input view is the
// set of members the SDK's sdk-tools.d.ts declares without "?" (the
// schema Claude Code validates a call's input against before a hook sees
// it), for the SDK the library is verified against.
func TestRequiredMembersMatchSDK(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the Agent SDK package (npm, or the user cache)")
	}
	files := loadSDK(t, verifiedSDK)
	tools, err := sdkdecl.Parse(files.Tools)
	require.NoError(t, err)
	n := 0
	for name, views := range toolViews {
		typ, err := tools.Lookup(name)
		require.NoError(t, err, name)
		s, ok, err := tools.ObjectShape(typ)
		require.NoError(t, err, name)
		require.True(t, ok, name)
		var want []string
		for _, m := range s.Members {
			if !m.Optional {
				want = append(want, m.Name)
			}
		}
		slices.Sort(want)
		for _, v := range views {
			got := slices.Clone(RequiredMembers(v))
			slices.Sort(got)
			assert.Equal(t, want, got, "%s (%s)", v.Name(), name)
			n++
		}
	}
	assert.Greater(t, n, 25, "views compared")
}

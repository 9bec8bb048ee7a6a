package hook

import (
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/wire"
)

// TestMarshalPatchOnAnswer checks that an answer's hookSpecificOutput,
// used as a patch, encodes exactly as the json package encodes it with
// deterministic map order, and takes the fast codec. internal/wire's
// tests check maps and other patches.
func TestMarshalPatchOnAnswer(t *testing.T) {
	for _, p := range []any{
		&preToolUseSpecific{HookEventName: "PreToolUse", UpdatedInput: jsontext.Value(`{"a":1}`)},
		&preToolUseSpecific{HookEventName: "PreToolUse", PermissionDecision: "deny", PermissionDecisionReason: "K\u00f6ln \"x\"\t", UpdatedInput: jsontext.Value(`{"a":"\ud800","b":[2.50]}`)},
	} {
		want, err := json.Marshal(p, jsonopts.Marshal(), jsonopts.Deterministic())
		require.NoError(t, err)
		got, err := wire.MarshalPatch(p)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%#v", p)
		_, ok := wire.FastAppendPatch(p)
		assert.True(t, ok, "the fast codec encodes %#v", p)
	}
}

package hook

import (
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/sdkdecl"
)

// sdkEnums pairs an input member whose SDK type is a union of string
// literals with the prefix of the library's constants of its values.
var sdkEnums = []struct {
	sdkType, member, prefix string
}{
	{"InterruptHookInput", "source", "InterruptSource"},
	{"InterruptHookInput", "reason", "InterruptReason"},
	{"InterruptHookInput", "via", "InterruptVia"},
	{"SDKAssistantMessageError", "", "StopError"},
	// The members the matchers of these events are tested against, whose
	// values hookctl doctor names (cmd/hookctl/matchervalues.go).
	{"SessionStartHookInput", "source", "SessionStart"},
	{"ExitReason", "", "SessionEnd"},
	{"SetupHookInput", "trigger", "Setup"},
	{"PreCompactHookInput", "trigger", "Compact"},
	{"PostCompactHookInput", "trigger", "Compact"},
	{"ConfigChangeHookInput", "source", "Config"},
	{"InstructionsLoadedHookInput", "load_reason", "Load"},
	{"DirectoryAddedHookInput", "source", "Directory"},
}

// TestDriftEnums: the library has a constant for every value the SDK
// declares for these members, and none the SDK lacks. With
// HOOK_SDK_VERSION set to another version it only reports.
func TestDriftEnums(t *testing.T) {
	version := os.Getenv("HOOK_SDK_VERSION")
	if version == "" {
		version = verifiedSDK
	}
	files := loadSDK(t, version)
	sdk, err := sdkdecl.Parse(files.SDK)
	require.NoError(t, err)
	report := t.Errorf
	if version != verifiedSDK {
		report = t.Logf
	}
	for _, e := range sdkEnums {
		typ, err := sdk.Lookup(e.sdkType)
		require.NoError(t, err)
		if e.member != "" {
			s, ok, err := sdk.ObjectShape(typ)
			require.NoError(t, err)
			require.True(t, ok, e.sdkType)
			m, ok := s.Member(e.member)
			require.True(t, ok, "%s.%s", e.sdkType, e.member)
			typ = m.Type
		}
		want, err := sdk.StringLiterals(typ)
		require.NoError(t, err, "%s.%s", e.sdkType, e.member)
		got, err := sourceConsts(e.prefix)
		require.NoError(t, err)
		require.NotEmpty(t, want, "%s.%s", e.sdkType, e.member)
		for _, v := range want {
			if !slices.Contains(got, v) {
				report("drift: %s.%s: the library has no %s constant for %q", e.sdkType, e.member, e.prefix, v)
			}
		}
		for _, v := range got {
			if !slices.Contains(want, v) {
				report("drift: %s.%s: the SDK lacks the library's %s value %q", e.sdkType, e.member, e.prefix, v)
			}
		}
	}
	assert.NotEmpty(t, sdkEnums)
}

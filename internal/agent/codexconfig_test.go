package agent

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckCodexHooksFile(t *testing.T) {
	good := []string{
		`{}`,
		`{"description":null,"hooks":{}}`,
		`{"description":"team hooks","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/bin/guard","timeout":10,"statusMessage":"checking"}]}]}}`,
		`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","unknownHandlerField":1}],"unknownGroupField":true}],"SessionEnd":[]}}`,
		`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":0,"timeoutSec":null,"async":false,"commandWindows":"x.exe"}]}]}}`,
		// Codex 0.171.0 reads neither timeoutSec, timeout_sec nor
		// status_message: it ignores them as any unknown member.
		`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeoutSec":-1,"timeout_sec":"x","status_message":1}]}]}}`,
		`{"hooks":{"PreModelRequest":[{"hooks":[{"type":"command","command":"x","additionalContextLimit":0}]}],"PostModelRequest":[]}}`,
		"\ufeff" + `{"hooks":{"Interrupt":[{"hooks":[{"type":"prompt","prompt":"p"}]}]}}`,
	}
	for _, g := range good {
		assert.NoError(t, CheckCodexHooksFile([]byte(g)), g)
	}
	bad := []struct{ file, want string }{
		{`[]`, "not one JSON object"},
		{`{"$schema":"https://x","hooks":{}}`, "$schema: Codex refuses a file with root members"},
		{`{"description":1}`, "description: must be a string or null"},
		{`{"hooks":[]}`, "hooks: must be an object"},
		{`{"hooks":{"Notification":[]}}`, "hooks.Notification: Codex has no such event"},
		{`{"hooks":{"SessionStart":{"matcher":"startup","hooks":[{"type":"command","command":"x"}]}}}`, "hooks.SessionStart: must be an array of groups"},
		{`{"hooks":{"Stop":[{"hooks":[{"timeout":10,"type":"command"}]}]}}`, "hooks.Stop[0].hooks[0].command"},
		{`{"hooks":{"Stop":[{"hooks":[{"command":"x"}]}]}}`, "hooks.Stop[0].hooks[0].type: required"},
		{`{"hooks":{"Stop":[{"matcher":"x"}]}}`, "hooks.Stop[0].hooks: required"},
		{`{"hooks":{"Stop":[{"matcher":3,"hooks":[]}]}}`, "hooks.Stop[0].matcher: must be a string"},
		{`{"hooks":{"Stop":[{"hooks":{}}]}}`, "hooks.Stop[0].hooks: must be an array"},
		{`{"hooks":{"Stop":["x"]}}`, "hooks.Stop[0]: must be an object"},
		{`{"hooks":{"Stop":[{"hooks":[1]}]}}`, "hooks.Stop[0].hooks[0]: must be an object"},
		{`{"hooks":{"Stop":[{"hooks":[{"type":"http","url":"http://x"}]}]}}`, `hooks.Stop[0].hooks[0].type: "http" is not a handler type`},
		{`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","timeout":1.5}]}]}}`, "hooks.Stop[0].hooks[0].timeout: must be a whole number"},
		{`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","additionalContextLimit":-1}]}]}}`, "additionalContextLimit: must be a whole number"},
		{`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","command_windows":[1]}]}]}}`, "command_windows: must be a string"},
		{`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","statusMessage":1}]}]}}`, "statusMessage: must be a string"},
		{`{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","async":"yes"}]}]}}`, "async: must be true or false"},
	}
	for _, b := range bad {
		err := CheckCodexHooksFile([]byte(b.file))
		if assert.Error(t, err, b.file) {
			assert.Contains(t, err.Error(), b.want)
		}
	}
}

package hook_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

// TestRacingHandlerProcess runs a hook (testdata/racehook) whose handler
// answers with a raw value and keeps writing into it from a goroutine,
// breaking and mending it byte by byte, while the library checks and
// writes the answer. Every run must either write exactly the value the
// handler answered before it began to write (valid JSON, exit 0), or
// nothing on stdout with a failure's exit code (the hook fails closed):
// never invalid JSON, never a value other than the one checked.
//
// The hook is built with a plain "go build", without the race detector,
// also when this test runs under -race: the handler's race is the
// condition under test, not a bug of the test, and the detector would
// only end the hook at its first racing write. Under -race the test
// still checks the same outcomes of the same uninstrumented binary, and
// the library's side (everything in this package's process) runs under
// the detector as usual.
func TestRacingHandlerProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a hook and runs it as processes: not with -short")
	}
	bin := hooktest.BuildGo(t, "./testdata/racehook")
	big := strings.Repeat("ab", 4<<10) // well over the 4 KiB from which a Merge result is spliced
	toolInput := `{"command":"echo ` + big + `","description":"d"}`
	spacedInput := "{\r\n  \"command\": \"echo " + big + "\",\r\n\t\"description\" : \"d\"\r\n}"
	merged := `{"command":"echo ` + big + `","description":"d","checked":true}`
	chained := `{"command":"echo ` + big + `","description":"d","checked":true,"audited":true}`
	response := `{"stdout":"` + big + `","stderr":"","interrupted":false}`
	updatedResponse := `{"stdout":"` + big + `","stderr":"checked","interrupted":false}`
	// runs is how many processes run each mode: the Merge result that is
	// spliced in is where a racing handler once got invalid JSON out
	// with exit 0 (in a few of 200 runs).
	cases := []struct {
		mode, event, input, want string
		runs                     int
	}{
		{"calm", "PreToolUse", toolInput, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":` + merged + `}}`, 20},
		{"merge", "PreToolUse", toolInput, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":` + merged + `}}`, 200},
		{"input", "PreToolUse", toolInput, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":` + merged + `}}`, 50},
		// The same on a spaced input: its Merge result is vouched for
		// and compacted as it is written.
		{"merge", "PreToolUse", spacedInput, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":` + merged + `}}`, 100},
		{"input", "PreToolUse", spacedInput, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":` + merged + `}}`, 50},
		// A Chain of two Merges: its last rewrite is carried to Serve's
		// invocation as pieces of the input read, and spliced in.
		{"chain", "PreToolUse", toolInput, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":` + chained + `}}`, 100},
		{"chainfirst", "PreToolUse", toolInput, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":` + chained + `}}`, 50},
		{"chaininput", "PreToolUse", toolInput, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":` + chained + `}}`, 50},
		{"raw", "PreToolUse", toolInput, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":` + merged + `}}`, 50},
		{"permission", "PermissionRequest", toolInput, `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":` + merged + `}}}`, 50},
		{"posttooluse", "PostToolUse", toolInput, `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":` + updatedResponse + `}}`, 50},
	}
	for _, c := range cases {
		name := c.mode
		if c.input != toolInput {
			name += " spaced"
		}
		t.Run(name, func(t *testing.T) {
			extra := `,"tool_name":"Bash","tool_input":` + c.input + `,"tool_use_id":"toolu_1"`
			if c.event == "PostToolUse" {
				extra += `,"tool_response":` + response
			}
			stdin := badEvent(c.event, extra)
			answered, runs := 0, c.runs
			if testing.Short() {
				runs = min(runs, 20)
			}
			for i := range runs {
				cmd := exec.Command(bin)
				cmd.Env = append(os.Environ(), "RACEHOOK_MODE="+c.mode)
				cmd.Stdin = strings.NewReader(stdin)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				err := cmd.Run()
				code := cmd.ProcessState.ExitCode()
				if code == hook.ExitOK {
					require.NoError(t, err)
					require.True(t, json.Valid(stdout.Bytes()), "run %d: invalid JSON with exit 0: %.200s", i, stdout.String())
					require.Equal(t, c.want+"\n", stdout.String(), "run %d: exit 0 with another value than the one answered", i)
					answered++
					continue
				}
				want := hook.ExitError // PermissionRequest and PostToolUse cannot block
				if hook.CanBlock(c.event) {
					want = hook.ExitBlock
				}
				require.Equal(t, want, code, "run %d: stderr: %s", i, stderr.String())
				require.Empty(t, stdout.String(), "run %d: a failure with stdout", i)
				require.True(t, strings.HasPrefix(stderr.String(), "hook: "), "run %d: %s", i, stderr.String())
				assert.NotContains(t, stderr.String(), "goroutine ", "run %d", i)
			}
			t.Logf("%s: %d of %d runs answered, the others failed", c.mode, answered, runs)
			if c.mode == "calm" {
				assert.Equal(t, runs, answered, "nothing races: every run answers")
			}
		})
	}
}

package hooktest_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/hooktest"
)

// aisleOnly is a property run on the seed's own call alone.
func aisleOnly(o hooktest.Options) *hooktest.Options {
	o.Fixtures = []hooktest.Fixture{}
	o.Tools = []hooktest.Tool{{Name: "mcp__aisle__listen_here", Input: aisleInput}}
	return &o
}

// TestLobbyFails: a handler that keeps every member with Merge but sets
// the model's room to "lobby" whatever room it chose is the seed bug's
// effect: each run that changed the room fails, saying the hook sets one
// value. Options.Changes is how the author says the room is the hook's.
func TestLobbyFails(t *testing.T) {
	lobby := aisleHook(func(e *hook.PreToolUse) (jsontext.Value, error) {
		return e.Merge(map[string]string{"room": "lobby"})
	})
	rep := hooktest.RunProperty(func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(lobby, p), nil },
		aisleOnly(hooktest.Options{Values: hooktest.RoomNames()}))
	require.NotEmpty(t, rep.Failures)
	f := rep.Failures[0]
	assert.Equal(t, "pretooluse mcp__aisle__listen_here (unchanged)", f.Where())
	assert.ErrorContains(t, f, `/hookSpecificOutput/updatedInput/room: member changed from "Quarterly Planning" to "lobby"; the hook sets it to "lobby" whatever the model sent`)
	assert.ErrorContains(t, f, `declare it in hooktest.Options.Changes: "room"`)
	for _, f := range rep.Failures {
		assert.NotContains(t, f.Error(), "updatedInput/seats", "%v", f)
		assert.NotContains(t, f.Error(), "updatedInput/floor", "%v", f)
	}
	ok := hooktest.RunProperty(func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(lobby, p), nil },
		aisleOnly(hooktest.Options{Values: hooktest.RoomNames(), Changes: []string{"room"}}))
	assert.NoError(t, ok.Err())
}

// TestKnownNamesFail: a program that decodes the input into a struct and
// encodes it again keeps every value of its members, and loses every
// member of another name: the run with unusual names catches it, where
// the fixtures' own names pass.
func TestKnownNamesFail(t *testing.T) {
	bin := hooktest.BuildGo(t, "../cmd/hookcheck/testdata/gostruct")
	c := &hooktest.Command{Path: bin}
	rep := hooktest.RunProperty(func(p []byte) (*hooktest.Recorder, error) { return c.Run(context.Background(), p) },
		&hooktest.Options{Fixtures: []hooktest.Fixture{}, Tools: []hooktest.Tool{{Name: "mcp__aisle__listen_here", Input: `{"room":"Quarterly Planning","seats":12}`}},
			Values: hooktest.RoomNames(), Parallel: 2})
	var names *hooktest.Failure
	for _, f := range rep.Failures {
		switch {
		case f.Value == "unusual member names":
			names = f
		case f.Member == hooktest.AddedMember:
			assert.ErrorContains(t, f, "/hookSpecificOutput/updatedInput/hooktest_added: member lost")
		default:
			assert.Failf(t, "a value of a known member was lost", "%v", f)
		}
	}
	require.NotNil(t, names, "%v", rep.Err())
	assert.True(t, names.Added)
	assert.Contains(t, names.Where(), "with members of unusual names added to /tool_input")
	for _, want := range []string{
		"/hookSpecificOutput/updatedInput/seat-count: member lost",
		"/hookSpecificOutput/updatedInput/Room: member lost",
		`/hookSpecificOutput/updatedInput/room: member changed from "Quarterly Planning" to "the case twin of room"`,
		"/hookSpecificOutput/updatedInput/slash~1and~0tilde: member lost",
	} {
		assert.ErrorContains(t, names, want)
	}
}

// TestFailedOpenListed: runs that end with exit 1 are counted apart from
// the answers that guard the call, and the summary lists them.
func TestFailedOpenListed(t *testing.T) {
	failing := aisleHook(func(e *hook.PreToolUse) (jsontext.Value, error) {
		if strings.Contains(string(e.ToolInput), `C:\\rooms`) {
			return nil, errors.New("cannot read a backslash")
		}
		return e.Merge(map[string]string{"checked": "yes"})
	})
	rep := hooktest.RunProperty(func(p []byte) (*hooktest.Recorder, error) { return hooktest.Record(failing, p), nil },
		aisleOnly(hooktest.Options{Values: hooktest.RoomNames()}))
	require.Len(t, rep.FailedOpen, 4, "backslash in room, seats, floor and the added member:\n%s", strings.Join(rep.FailedOpen, "\n"))
	assert.Equal(t, "pretooluse mcp__aisle__listen_here with backslash in /tool_input/room: exit code 1: hook: cannot read a backslash", rep.FailedOpen[0])
	assert.NoError(t, rep.Err(), "exit 1 on a tricky value is no failure, but it is listed")
}

// TestLongValueChangedAtItsEnd: the message shows where a long value
// differs, not two identical prefixes.
func TestLongValueChangedAtItsEnd(t *testing.T) {
	long := strings.Repeat("long ünïcode line ", 300)
	err := hooktest.CheckSameValue(jsontext.Value(`{"room":"`+long+`end"}`), jsontext.Value(`{"room":"`+long+`END"}`))
	require.Error(t, err)
	msg := err.Error()
	assert.Contains(t, msg, `member changed from […`)
	assert.Contains(t, msg, `end" to […`)
	assert.Contains(t, msg, `END" (a hook must keep`)
	assert.Contains(t, msg, " bytes in common…]")
}

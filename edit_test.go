package hook_test

import (
	"errors"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook"
)

func TestEditReplacesOnlyChangedMembers(t *testing.T) {
	orig := jsontext.Value(`{"command":"npm test","description":"Run \u0074ests","timeout":120000,"x_future":{"n":2.50}}`)
	got, err := hook.Edit(orig, func(in *hook.BashInput) error {
		assert.Equal(t, "Run tests", in.Description)
		in.Command = "timeout 600 " + in.Command
		return nil
	})
	require.NoError(t, err)
	// description keeps its escape, timeout its spelling, x_future survives.
	assert.Equal(t, `{"command":"timeout 600 npm test","description":"Run \u0074ests","timeout":120000,"x_future":{"n":2.50}}`, string(got))
}

func TestEditAddsAFieldThatWasAbsent(t *testing.T) {
	got, err := hook.Edit(jsontext.Value(`{"command":"ls"}`), func(in *hook.BashInput) error {
		in.Timeout = 5000
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, `{"command":"ls","timeout":5000}`, string(got))
}

func TestEditWritesZeroValuesItSets(t *testing.T) {
	// The bug of experiment d3: an Edit rewrite that drops replace_all. A
	// typed edit that sets it to false writes false; one that leaves it
	// alone keeps true.
	orig := jsontext.Value(`{"file_path":"/p/a.go","old_string":"x","new_string":"y","replace_all":true}`)
	kept, err := hook.Edit(orig, func(in *hook.EditInput) error {
		in.NewString = "z"
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, `{"file_path":"/p/a.go","old_string":"x","new_string":"z","replace_all":true}`, string(kept))

	off, err := hook.Edit(orig, func(in *hook.EditInput) error {
		in.ReplaceAll = false
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, `{"file_path":"/p/a.go","old_string":"x","new_string":"y","replace_all":false}`, string(off))
}

func TestEditNoChangeKeepsTheInput(t *testing.T) {
	orig := jsontext.Value(`{"file_path":"/a","offset":3,"limit":1}`)
	got, err := hook.Edit(orig, func(in *hook.ReadInput) error { return nil })
	require.NoError(t, err)
	assert.Equal(t, string(orig), string(got))
}

func TestEditErrors(t *testing.T) {
	_, err := hook.Edit(jsontext.Value(`{"command":1}`), func(in *hook.BashInput) error { return nil })
	assert.ErrorContains(t, err, "decoding")

	boom := errors.New("boom")
	_, err = hook.Edit(jsontext.Value(`{"command":"ls"}`), func(in *hook.BashInput) error { return boom })
	assert.ErrorIs(t, err, boom)

	type omitting struct {
		Command string `json:"command,omitzero"`
	}
	// An omitzero field set to its zero value is written, not dropped.
	got, err := hook.Update(jsontext.Value(`{"command":"ls","x":1}`), &omitting{})
	require.NoError(t, err)
	assert.Equal(t, `{"command":"","x":1}`, string(got))

	// A raw value or pointer set to nil would drop the member.
	type rawView struct {
		Meta jsontext.Value `json:"meta,omitzero"`
		Ptr  *string        `json:"ptr,omitzero"`
	}
	_, err = hook.Update(jsontext.Value(`{"meta":{"a":1}}`), &rawView{})
	assert.ErrorContains(t, err, "hook.Remove")
	_, err = hook.Update(jsontext.Value(`{"ptr":"p"}`), &rawView{})
	assert.ErrorContains(t, err, "hook.Remove")

	// A view of another kind than orig does not decode.
	_, err = hook.Update(jsontext.Value(`{"command":"ls"}`), "not a struct")
	assert.ErrorContains(t, err, "decoding string")
	_, err = hook.Update(jsontext.Value(`{"command":"ls"}`), nil)
	assert.ErrorContains(t, err, "nil")

	var nilView *hook.BashInput
	_, err = hook.Update(jsontext.Value(`{"command":"ls"}`), nilView)
	assert.ErrorContains(t, err, "nil")
}

func TestPreToolUseUpdate(t *testing.T) {
	e := &hook.PreToolUse{ToolInput: jsontext.Value(`{"file_path":"/p/notes.txt","content":"old \u00e9"}`)}
	var w hook.WriteInput
	require.NoError(t, json.Unmarshal(e.ToolInput, &w))
	w.FilePath = "/p/notes.md"
	got, err := e.Update(&w)
	require.NoError(t, err)
	assert.Equal(t, `{"file_path":"/p/notes.md","content":"old \u00e9"}`, string(got))
}

package hooktest_test

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/hooktest"
)

func field(t *testing.T, v jsontext.Value, name string) string {
	t.Helper()
	f, ok := hooktest.Field(v, name)
	require.True(t, ok, "no %s in %s", name, v)
	return string(f)
}

func TestNewPreToolUse(t *testing.T) {
	p := hooktest.NewPreToolUse("Bash", `{ "command": "echo \u00e9\ud800",  "timeout": 2.50 }`)
	assert.Equal(t, `"PreToolUse"`, field(t, p, "hook_event_name"))
	assert.Equal(t, `"Bash"`, field(t, p, "tool_name"))
	assert.Equal(t, `{"command":"echo \u00e9\ud800","timeout":2.50}`, field(t, p, "tool_input"), "bytes kept, whitespace dropped")
	_, ok := hooktest.Field(p, "mcp_server")
	assert.False(t, ok)
	assert.NoError(t, hooktest.CheckAnswer(p, 0, nil, nil))

	m := hooktest.NewPreToolUse("mcp__rooms__listen_here", `{"room":"Ops\tNight"}`)
	assert.Equal(t, `{"name":"rooms","source":"dynamic"}`, field(t, m, "mcp_server"))
	assert.Equal(t, `{"room":"Ops\tNight"}`, field(t, m, "tool_input"))
}

func TestBuildersPanic(t *testing.T) {
	for _, bad := range []string{``, `[]`, `"x"`, `{"a":1,"a":2}`, `{"a":1`, `{} {}`} {
		assert.Panics(t, func() { hooktest.NewPreToolUse("Bash", bad) }, bad)
		assert.Panics(t, func() { hooktest.NewPermissionRequest("Bash", bad) }, bad)
		assert.Panics(t, func() { hooktest.NewPostToolUse("Bash", bad, `""`) }, bad)
	}
	assert.Panics(t, func() { hooktest.NewPreToolUse("", `{}`) })
	assert.Panics(t, func() { hooktest.NewPostToolUse("Bash", `{}`, `{`) })
	assert.Panics(t, func() { hooktest.NewEvent("NoSuchEvent") })
	assert.Panics(t, func() { hooktest.WithField(jsontext.Value(`[]`), "a", 1) })
	assert.Panics(t, func() { hooktest.WithToolInputField(hooktest.NewEvent("Stop"), "a", 1) })
}

func TestNewPermissionRequest(t *testing.T) {
	p := hooktest.NewPermissionRequest("Edit", `{"file_path":"/a","old_string":"x","new_string":"y","replace_all":false}`)
	assert.Equal(t, `"PermissionRequest"`, field(t, p, "hook_event_name"))
	assert.Equal(t, `"Edit"`, field(t, p, "tool_name"))
	_, ok := hooktest.Field(p, "permission_suggestions")
	assert.False(t, ok)
	m := hooktest.NewPermissionRequest("mcp__probe__listen_here", `{"room":"x"}`)
	assert.Equal(t, `"probe"`, field(t, jsontext.Value(field(t, m, "mcp_server")), "name"))
}

func TestNewPostToolUse(t *testing.T) {
	p := hooktest.NewPostToolUse("Bash", `{"command":"ls"}`, `{"stdout": "a\u00e9", "stderr": ""}`)
	assert.Equal(t, `"PostToolUse"`, field(t, p, "hook_event_name"))
	assert.Equal(t, `{"stdout":"a\u00e9","stderr":""}`, field(t, p, "tool_response"))
}

func TestNewEventCoversEveryEvent(t *testing.T) {
	for _, f := range hooktest.Fixtures() {
		p := hooktest.NewEvent(f.Event)
		assert.Equal(t, `"`+f.Event+`"`, field(t, p, "hook_event_name"))
	}
}

func TestWithField(t *testing.T) {
	p := hooktest.NewEvent("Stop")
	q := hooktest.WithField(p, "stop_hook_active", true)
	assert.Equal(t, `true`, field(t, q, "stop_hook_active"))
	assert.Equal(t, field(t, p, "session_id"), field(t, q, "session_id"))
	r := hooktest.WithField(q, "new_field", jsontext.Value(`"\ud800"`))
	assert.Equal(t, `"\ud800"`, field(t, r, "new_field"), "a jsontext.Value is written as it is")
	s := hooktest.WithoutField(r, "new_field", "stop_hook_active")
	_, ok := hooktest.Field(s, "stop_hook_active")
	assert.False(t, ok)
	assert.Equal(t, len(p)-len(`,"stop_hook_active":false`), len(s))
}

func TestWithToolInputField(t *testing.T) {
	p := hooktest.WithToolInputField(hooktest.Payload("pretooluse-bash"), "timeout", jsontext.Value(`1E+2`))
	assert.Equal(t, `{"command":"npm test -- --runInBand","description":"Run the test suite","timeout":1E+2}`, field(t, p, "tool_input"))
}

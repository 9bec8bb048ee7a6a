package settings

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestHandlerString(t *testing.T) {
	tests := []struct {
		h    Handler
		want string
	}{
		{Handler{Command: "/usr/local/bin/guard --strict"}, "/usr/local/bin/guard --strict"},
		{Handler{Command: "/usr/local/bin/guard", Args: []string{"--policy", "strict"}}, "/usr/local/bin/guard --policy strict"},
		{Handler{Command: `C:\Tools\hook.exe`, Args: []string{`D:\policy.json`}}, `'C:\Tools\hook.exe' 'D:\policy.json'`},
		{Handler{Command: `\\server\share\hook.exe`, Args: []string{}}, `'\\server\share\hook.exe'`},
		{Handler{Command: "/opt/my hooks/guard", Args: []string{"it's", ""}}, `'/opt/my hooks/guard' 'it'\''s' ''`},
		{Handler{Command: "/bin/guard", Args: []string{"Köln", "${CLAUDE_PLUGIN_ROOT}/p", "a\tb", "x\x00y"}}, `/bin/guard 'Köln' ${CLAUDE_PLUGIN_ROOT}/p "a\tb" "x\x00y"`},
		{Handler{Command: "/bin/guard", Args: []string{"bad\xffutf8"}}, `/bin/guard "bad\xffutf8"`},
		{Handler{Type: "http", URL: "http://127.0.0.1:8080/hook"}, "http http://127.0.0.1:8080/hook"},
		{Handler{Type: "mcp_tool", Server: "probe", Tool: "check"}, "mcp_tool probe check"},
		{Handler{Type: "prompt", Prompt: "is it \"safe\"?"}, `prompt "is it \"safe\"?"`},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.h.String(), "%#v", tt.h)
	}
}

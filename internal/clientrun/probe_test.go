package clientrun

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestServe(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"listen_here","arguments":{"room":"\ud800 \u00f6\tx","fingerprint":"abc"}}}`,
		`not json`,
		`{"jsonrpc":"2.0","id":"s","method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"listen_here","arguments":{"room":"` + strings.Repeat("long ", 30000) + `"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"listen_here","arguments":{"n":1.50},"_meta":{"claudecode/toolUseId":"toolu_x","progressToken":1}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"other","arguments":{}}}`,
	}, "\n") + "\n"
	var out, log bytes.Buffer
	cfg := &ProbeConfig{Name: "probe", Tools: []ProbeTool{{Name: "listen_here", InputSchema: []byte(`{"type":"object"}`), Reply: "listening"}}}
	assert.NoError(t, ServeProbe(cfg, strings.NewReader(in), &out, &log))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if assert.Len(t, lines, 7) {
		assert.Equal(t, `{"id":0,"jsonrpc":"2.0","result":{"capabilities":{"tools":{}},"protocolVersion":"2025-11-25","serverInfo":{"name":"probe","version":"0.0.1"}}}`, lines[0])
		assert.Contains(t, lines[1], `"name":"listen_here"`)
		assert.Equal(t, `{"id":2,"jsonrpc":"2.0","result":{"content":[{"text":"listening","type":"text"}]}}`, lines[2])
		assert.Equal(t, `{"error":{"code":-32601,"message":"method not found: resources/list"},"id":"s","jsonrpc":"2.0"}`, lines[3])
		assert.Equal(t, `{"error":{"code":-32602,"message":"unknown tool: other"},"id":5,"jsonrpc":"2.0"}`, lines[6])
	}
	logged := strings.Split(strings.TrimSuffix(log.String(), "\n"), "\n")
	if assert.Len(t, logged, 3) {
		// The arguments exactly as received: escapes kept.
		assert.Equal(t, `{"name":"listen_here","arguments":{"room":"\ud800 \u00f6\tx","fingerprint":"abc"}}`, logged[0])
		assert.Len(t, logged[1], len(`{"name":"listen_here","arguments":{"room":""}}`)+5*30000)
		assert.Equal(t, `{"name":"listen_here","arguments":{"n":1.50},"tool_use_id":"toolu_x"}`, logged[2], "the call's id from _meta")
	}
}

// Package e2e checks hooks built with this library against the real Claude
// Code CLI. It runs `claude -p` headless against a fake Anthropic Messages
// API on 127.0.0.1 that plays a script of tool calls ([FakeAPI]), with a
// tiny stdio MCP server offering listen_here {room, fingerprint} that
// logs the exact arguments it receives (cmd/mcpprobe), and with every hook
// under test run through a tap that records its stdin, stdout, stderr and
// exit code (cmd/hooktap). Claude Code's own hook machinery runs the
// hooks; the tests then check what the tools did, what the MCP server
// got and what the model was told.
//
// The tests are skipped unless asked for:
//
//	HOOK_E2E=1 go test ./e2e/
//
// They install @anthropic-ai/claude-code (version [DefaultClaudeVersion]
// unless $HOOK_E2E_CLAUDE_VERSION says otherwise) with npm into a cache
// folder when it is missing, then restart themselves in a network
// namespace that has only loopback where `unshare -n` works. Each run gets
// a fresh HOME (with a trust entry for the project) and project folder,
// and is bounded at 120 seconds. See the Env constants for the knobs.
//
// Nothing here contacts any address but 127.0.0.1 (the npm registry for
// the first install aside): Claude Code is pointed at the fake API, and
// its proxy variables point there too, so any other request is logged and
// refused (see [FakeAPI.OutsideTries]).
package e2e

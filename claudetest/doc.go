// Package claudetest tests a hook inside the real Claude Code, from
// go test. hooktest proves a hook's answers in-process; claudetest proves
// what the hook does once Claude Code runs it: that its matcher and
// settings pick it, what the permission flow makes of its answer, and what
// the tool and the model then receive.
//
// [Run] runs Claude Code headless (`claude -p`) once per [Session] in a
// fresh HOME and project folder, against a fake Anthropic Messages API on
// 127.0.0.1 that plays the session's script: the tool calls of each
// [Turn], then a final text. Claude Code's own hook machinery runs the
// hooks under test, each through a recorder. The [Result] tells, per
// [ToolCall], what each hook received and answered ([HookRun]), what an
// MCP server received byte for byte ([MCPCall]), what the model was told
// ([ToolResult]) and whether the permission system refused it; and for
// the run, every hook run in order, the files on disk, the permission
// denials, the final text and the debug log's lines about hooks.
//
// A whole test:
//
//	func TestGuardBlocksRmRf(t *testing.T) {
//		claudetest.Need(t) // skip before building when the client cannot run
//		guard := hooktest.BuildGo(t, ".")
//		r := claudetest.Run(t, claudetest.Session{
//			Files: map[string]string{"keep.txt": "precious\n"},
//			Hooks: []claudetest.Hook{{Event: "PreToolUse", Matcher: "Bash", Command: []string{guard}, Name: "guard"}},
//			Turns: []claudetest.Turn{{claudetest.Bash("rm -rf keep.txt")}},
//		})
//		call := r.Call(1)
//		if h, ok := call.Hook("guard", "PreToolUse"); !ok || h.Code != 0 {
//			t.Fatalf("the guard did not run cleanly: %+v", h)
//		}
//		if call.Result == nil || !call.Result.IsError {
//			t.Errorf("the model was not told the call was blocked: %+v", call.Result)
//		}
//		if _, ok := r.File("keep.txt"); !ok {
//			t.Error("rm -rf ran")
//		}
//	}
//
// # Hooks
//
// A [Hook] is a command (any argv: a binary from hooktest.BuildGo, a
// script run by its interpreter), an http hook (an http.Handler that
// claudetest serves on 127.0.0.1), or neither, a recorder that answers
// nothing, to see when and with what an event fires. Each is registered
// in the project's .claude/settings.json with its event and matcher;
// [Session].Allow is the project's permissions.allow list.
//
// The recorder in front of each command hook, and each MCP server, is the
// test binary itself, started by Claude Code with CLAUDETEST_HELPER set:
// claudetest's init runs the helper and exits before any test starts, so
// nothing is built for them. The package initialization of the test
// binary does run first, so it must not depend on the test's working
// directory (a helper runs in the project folder).
//
// # Skipping, installing, and the environment
//
// The runs need HOOK_E2E=1; without it [Run] and [Need] skip the test with
// a message saying how to ask, so that a plain go test ./... stays fast
// and offline. They skip too, never fail, when Claude Code cannot be run:
// not installed and no npm to install it. On first use claudetest
// installs Claude Code [Version] with npm into the user cache folder
// (gohooks-e2e/claude-code/<version>), which needs the npm registry once:
// the package of this platform's native binary
// (@anthropic-ai/claude-code-linux-x64, -linux-arm64, -linux-x64-musl,
// -darwin-arm64, -win32-x64, …), which is all Claude Code ships since
// 2.1.333 and needs no node to run. One install serves every test process
// of the machine: processes that start at once (go test ./...) wait for
// the first one's download.
//
//	HOOK_E2E=1               run the tests that use claudetest
//	CLAUDE_BIN               use this claude executable instead of installing one
//	HOOK_E2E_CLAUDE_VERSION  version to install (default Version; "latest": the newest of this platform's package)
//	HOOK_E2E_CACHE           the folder to install each version under, in a folder of its own (default: the user cache folder as above)
//	HOOK_E2E_NETNS           auto (default), 1 (require a loopback-only namespace) or 0
//	HOOK_E2E_TIMEOUT         limit of one claude run in seconds (default 120)
//	HOOK_E2E_JOBS            claude runs at a time (default 3)
//	HOOK_E2E_WORK            keep each run's folder here, one per test, for inspection
//
// # Nothing leaves the machine
//
// Claude Code is pointed only at the fake API on 127.0.0.1 with a dummy
// key, with telemetry, updates and other traffic off; its proxy variables
// point at the fake API too, which logs and refuses every request for
// another host, and [Run] fails the test when there was one. Call [Main]
// from TestMain to run the tests in a network namespace that has only
// loopback where `unshare -n` works, so that not even a hook can reach
// another address:
//
//	func TestMain(m *testing.M) { os.Exit(claudetest.Main(m)) }
//
// # What the fake model does
//
// The fake model answers the main loop (the requests that offer the
// script's first tool) from the script: turn n's calls as tool_use blocks
// with ids toolu_claudetest_1, _2, … counted across turns, streamed in
// two parts so that Claude Code joins partial JSON; then [Session].Final.
// It answers Claude Code's side requests (titles, summaries) with a short
// text. A call's Input reaches Claude Code exactly as written, so escapes
// such as \ud800 can be tested.
//
// claudetest is verified against Claude Code [Version]; other versions may
// word the messages a test matches differently.
package claudetest

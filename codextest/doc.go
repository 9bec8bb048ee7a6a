// Package codextest tests a hook inside the real OpenAI Codex CLI, from
// go test, as package claudetest does for Claude Code. hooktest proves a
// hook's answers in-process (with Codex's payloads: hooktest.CodexFixtures,
// hooktest.NewCodexPreToolUse, …); codextest proves what the hook does
// once Codex runs it: that its matcher picks it, what Codex makes of its
// answer, and what the tool and the model then receive.
//
// [Run] runs Codex headless (`codex exec`) once per [Session] in a fresh
// CODEX_HOME (also its HOME) and project folder, against a fake OpenAI
// Responses API on 127.0.0.1 that plays the session's script: the tool
// calls of each [Turn], then a final text. Codex's own hook machinery
// runs the hooks under test (registered in $CODEX_HOME/hooks.json), each
// through a recorder. The [Result] tells, per [ToolCall], what each hook
// received and answered ([HookRun]), what an MCP server received byte for
// byte ([MCPCall]) and what the model was told ([ToolResult]); and for the
// run, every hook run in order, what Codex reported of each
// ([Result.HookStatuses]: Completed, Blocked, Failed) and the final text.
//
// A whole test:
//
//	func TestGuardBlocksRmRf(t *testing.T) {
//		codextest.Need(t) // skip before building when the client cannot run
//		guard := hooktest.BuildGo(t, ".")
//		r := codextest.Run(t, codextest.Session{
//			Files: map[string]string{"keep.txt": "precious\n"},
//			Hooks: []codextest.Hook{{Event: "PreToolUse", Matcher: "Bash", Command: []string{guard}, Name: "guard"}},
//			Turns: []codextest.Turn{{codextest.Bash("rm -rf keep.txt")}},
//		})
//		call := r.Call(1)
//		if h, ok := call.Hook("guard", "PreToolUse"); !ok || h.Code != 0 {
//			t.Fatalf("the guard did not run cleanly: %+v", h)
//		}
//		if call.Result == nil || !strings.Contains(call.Result.Text, "blocked by PreToolUse hook") {
//			t.Errorf("the model was not told the call was blocked: %+v", call.Result)
//		}
//		if _, ok := r.File("keep.txt"); !ok {
//			t.Error("rm -rf ran")
//		}
//	}
//
// # Hooks, and what Codex calls its tools
//
// A [Hook] is a command (any argv: a binary from hooktest.BuildGo, a
// script run by its interpreter) or, with none, a recorder that answers
// nothing, to see when and with what an event fires. Codex runs command
// hooks only. The model calls Codex's shell as the function exec_command
// ([Bash] makes that call); hooks see it as the tool "Bash" with a
// tool_input of {"command": …} alone, so a matcher "Bash" picks it. An MCP
// tool is mcp__<server>__<tool> for the model ([MCP]) and for hooks.
//
// Hooks run with Codex's hook trust bypassed: codex exec gets
// --dangerously-bypass-hook-trust, so that a hook runs without its hash
// recorded first; and tool calls run without approvals or sandbox
// (--dangerously-bypass-approvals-and-sandbox), so payloads carry
// permission_mode "bypassPermissions". Hooks that [Session].Setup
// installs (with hookctl, say) run too, unrecorded; a project's
// .codex/hooks.json is read only once [Session].Config trusts the
// project ([projects.'<dir>'] trust_level = "trusted").
//
// The recorder in front of each command hook, and each MCP server, is the
// test binary itself, started by Codex with CODEXTEST_HELPER set:
// codextest's init runs the helper and exits before any test starts, so
// nothing is built for them. The package initialization of the test
// binary does run first, so it must not depend on the test's working
// directory (a helper runs in the project folder).
//
// # Skipping, installing, and the environment
//
// The runs need HOOK_E2E=1; without it [Run] and [Need] skip the test with
// a message saying how to ask, so that a plain go test ./... stays fast
// and offline. They skip too, never fail, when Codex cannot be run: not
// installed and no npm to install it. On first use codextest installs
// @openai/codex@[Version] with npm into the user cache folder
// (gohooks-e2e/codex/<version>), which needs the npm registry once, and
// runs the platform package's native binary, which does not need node.
//
//	HOOK_E2E=1               run the tests that use codextest
//	HOOK_E2E_CODEX_BIN       use this codex executable instead of installing one
//	HOOK_E2E_CODEX_VERSION   npm version to install (default Version)
//	HOOK_E2E_CODEX_CACHE     install folder (default: the user cache folder as above)
//	HOOK_E2E_NETNS           auto (default), 1 (require a loopback-only namespace) or 0
//	HOOK_E2E_TIMEOUT         limit of one codex run in seconds (default 120)
//	HOOK_E2E_JOBS            codex runs at a time (default 3)
//	HOOK_E2E_WORK            keep each run's folder here, one per test, for inspection
//
// # Nothing leaves the machine
//
// Codex gets an environment of its own: PATH, and nothing else of the
// test's, so no key or setting of the user's reaches it (the fake needs
// none). Its model provider is the fake API on 127.0.0.1, set in
// config.toml and again on the command line, where [Session].Config
// cannot override it; plugins, apps, model discovery and analytics, which
// Codex would fetch from github.com and chatgpt.com on its own, are off;
// its proxy variables point at the fake API, which logs and refuses every
// request for another host, and [Run] fails the test when there was one.
// Call [Main] from TestMain to run the tests in a network namespace that
// has only loopback where `unshare -n` works, so that not even a hook can
// reach another address:
//
//	func TestMain(m *testing.M) { os.Exit(codextest.Main(m)) }
//
// # What the fake model does
//
// The fake model answers each request with the calls of the first turn
// whose calls the request's input does not hold yet, as function_call
// items with call ids call_1, call_2, … counted across turns (Codex hands
// them to hooks as tool_use_id); then [Session].Final, also the answer to
// every later request. A call's Input reaches Codex exactly as written.
//
// codextest is verified against Codex [Version]; other versions may send
// other members and word their messages differently.
package codextest

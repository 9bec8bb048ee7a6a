// Package e2e holds the project's end-to-end tests: the example hooks and
// the library's claims, checked inside the real Claude Code CLI with
// package claudetest, their first user. It exports nothing.
//
// The tests are skipped unless asked for:
//
//	HOOK_E2E=1 go test ./e2e/
//
// See package claudetest for what a run does, the environment variables
// and what stays on the machine. The hooks that exist only for these tests
// are under testdata/.
package e2e

// Package clientrun runs a real agent CLI against fakes on 127.0.0.1: a
// fake Anthropic Messages API that plays a script of tool calls, a
// recorder put in front of each hook command ("tap"), an http-hook
// recorder, an MCP server that records the calls it gets ("probe"), a
// loopback-only network namespace to run in, and the clean environment
// and arguments that point Claude Code at the fake API only.
//
// It is the engine of packages claudetest and codextest (for tests) and
// of hookctl verify (for a user's configured hooks); none repeats its
// logic: a test package describes itself in a [Harness], which drives its
// runs, and sets each run up in a [Folder]. The
// recorder and the probe run as the calling program itself, started by
// the client with an environment variable the caller names (see [Tap] and
// [ProbeMain]).
package clientrun

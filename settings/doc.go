// Package settings reads, lists, adds and removes hook handlers in Claude
// Code's settings files (~/.claude/settings.json, .claude/settings.json,
// .claude/settings.local.json) and in plugins' hooks/hooks.json, byte for
// byte outside the entry it changes.
//
// Nothing is decoded and encoded again: a file is read into a tree of byte
// offsets, and an edit splices the new entry in (or the old one out), so
// other keys, other hooks, key order, indentation, escapes such as
// "\u00e9", big numbers, CRLF line endings and a missing final newline all
// survive. A new entry is laid out in the file's own style. [Add] is
// idempotent, and [RemoveKeeping] of what Add added, told the
// [Containers] Add found, gives back the original bytes (a missing file as
// nil); [Remove] does too unless the file held an empty "hooks" object or
// event array, or nothing.
//
// [Update] (and [Install], [Uninstall] on top of it) writes atomically: a
// temporary file in the same folder with the old permissions, renamed over
// the old one, under a lock file that concurrent writers take turns on.
// Only a regular file, a link (chain) to one, or nothing is read or
// written: anything else is refused with [ErrNotRegular] before it is
// opened. A file that is not valid JSON (comments included: Claude Code reads
// settings with JSON.parse), or whose hooks have the wrong shape, is a
// [*SyntaxError] naming the line and column, and is left untouched.
//
// [Locations] finds the files Claude Code 2.1.336 reads for a project, the
// installed plugins among them ($CLAUDE_CONFIG_DIR or ~/.claude, then
// plugins/installed_plugins.json, enabledPlugins, and the marketplaces it
// knows: a plugin from a marketplace it does not know is not loaded).
//
// Handlers of every type Claude Code 2.1.336 takes (command, http,
// mcp_tool, prompt, agent) are read and written, each with the members the
// SDK's settings type declares for it.
// Creating a plugin's .claude-plugin/plugin.json is out of scope.
package settings

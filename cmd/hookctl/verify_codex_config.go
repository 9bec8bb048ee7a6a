package main

import (
	"slices"
	"strings"
)

// codexDroppedTables are the tables of the user's config.toml verify does
// not carry into the scratch: those that name other hosts, programs or
// credentials (model providers, MCP servers, profiles, telemetry), and
// those it writes itself (hooks and their trust, project trust).
var codexDroppedTables = []string{"model_providers", "mcp_servers", "profiles", "otel", "hooks", "projects"}

// codexDroppedKeys are the top-level keys of the user's config.toml
// verify does not carry: the model and provider (verify's fake is given
// instead), what codex exec's command line sets (approvals, sandbox), a
// program run after each turn (notify), and how Codex logs in.
var codexDroppedKeys = []string{
	"model", "model_provider", "profile", "notify", "approval_policy", "sandbox_mode",
	"forced_login_method", "forced_chatgpt_workspace_id", "preferred_auth_method", "cli_auth_credentials_store",
	"hooks", "projects", "model_providers", "mcp_servers", "profiles", "otel",
}

// codexCarriedConfig returns what verify carries of the user's
// config.toml data into the scratch one: its top-level keys and its
// tables, as written, but codexDroppedKeys, codexDroppedTables, every key
// ending in _base_url or _url, and every line whose key or text looks
// like it holds a credential (secretName). A line or header hookctl
// cannot read is dropped too. It returns the top-level lines and the
// tables apart, since the scratch's own top-level keys must come before
// any table, and the names it dropped.
func codexCarriedConfig(data []byte) (top, tables string, dropped []string) {
	var tb, bb strings.Builder
	for _, t := range tomlScan(data) {
		if t.Keys != nil {
			if len(t.Keys) == 0 || slices.Contains(codexDroppedTables, t.Keys[0]) {
				dropped = append(dropped, "["+strings.Join(t.Keys, ".")+"]")
				continue
			}
			bb.WriteString(strings.TrimRight(string(data[t.Start:t.BodyFrom]), "\r\n") + "\n")
		}
		for _, e := range t.Entries {
			text := string(data[e.Start:e.End])
			name := ""
			if len(e.Keys) > 0 {
				name = e.Keys[0]
			}
			if name == "" || t.Keys == nil && (slices.Contains(codexDroppedKeys, name) || strings.HasSuffix(name, "_url")) ||
				strings.HasSuffix(name, "_base_url") || secretName(strings.Join(e.Keys, ".")) || secretName(text) {
				dropped = append(dropped, strings.Join(append(slices.Clone(t.Keys), e.Keys...), "."))
				continue
			}
			line := strings.TrimRight(text, "\r\n") + "\n"
			if t.Keys == nil {
				tb.WriteString(line)
			} else {
				bb.WriteString(line)
			}
		}
	}
	return tb.String(), bb.String(), dropped
}

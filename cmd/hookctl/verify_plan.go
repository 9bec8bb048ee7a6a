package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/gohooks/hook"
	"github.com/gohooks/hook/internal/clientrun"
	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/protocol"
	"github.com/gohooks/hook/settings"
)

// markerFile is the file the fake model's harmless calls write, read or
// edit in the scratch project.
const markerFile = "hookctl-verify-marker.txt"

// writtenFile is the file the Write call creates (Write refuses to
// overwrite a file the session has not read).
const writtenFile = "hookctl-verify-written.txt"

// markerText is what a marker call writes.
const markerText = "hookctl verify"

// verifyPlan is what verify does to make one hook fire: the call the fake
// model makes (none for events a turn fires by itself), or why it cannot.
type verifyPlan struct {
	// Call is the fake model's tool call; nil for events without a tool.
	Call *clientrun.Call
	// Pre is a call made in a turn before Call: the Read an Edit needs.
	Pre *clientrun.Call
	// Server and Tool name the probe MCP server and its tool, for a call
	// of an MCP tool.
	Server, Tool string
	// Fail makes the call fail (PostToolUseFailure).
	Fail bool
	// NotAllowed leaves the call without an allow rule, so that the
	// permission flow asks (PermissionRequest).
	NotAllowed bool
	// Skip says why verify does not check the hook; "" when it does.
	Skip string
}

// toolEvents are the events fired around a tool call, which verify makes
// fire with one call their matcher catches.
var toolEvents = map[string]bool{
	"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true, "PermissionRequest": true, "PostToolBatch": true,
}

// turnEvents are the events every headless turn fires, with the value
// their matcher is tested against in `claude -p` ("" for none).
var turnEvents = map[string]string{
	"SessionStart": "startup", "UserPromptSubmit": "", "Stop": "", "SessionEnd": "other",
}

// planFor returns what verify does to make the hook h fire in the
// scratch project proj.
func planFor(h settings.Hook, proj string) verifyPlan {
	switch h.Handler.Type {
	case "", "command":
	default:
		return verifyPlan{Skip: fmt.Sprintf("a %s hook: verify checks command hooks only", h.Handler.Type)}
	}
	m, err := hook.CompileMatcher(h.Event, h.Matcher)
	if err != nil {
		return verifyPlan{Skip: "matcher: " + err.Error()}
	}
	if v, ok := turnEvents[h.Event]; ok {
		if v != "" && protocol.MatcherOf(h.Event) != "" && !m.Match(v) {
			return verifyPlan{Skip: fmt.Sprintf("matcher %q does not match %q, the only %s of a headless run", h.Matcher, v, protocol.MatcherOf(h.Event))}
		}
		if h.Handler.If != "" {
			return verifyPlan{Skip: fmt.Sprintf("an \"if\" rule on %s: it never matches an event without a tool", h.Event)}
		}
		return verifyPlan{}
	}
	if !toolEvents[h.Event] {
		if _, ok := protocol.Lookup(h.Event); !ok {
			return verifyPlan{Skip: fmt.Sprintf("%q is not a Claude Code hook event", h.Event)}
		}
		return verifyPlan{Skip: fmt.Sprintf("verify cannot fire %s in a headless run yet", h.Event)}
	}
	p := verifyPlan{Fail: h.Event == "PostToolUseFailure", NotAllowed: h.Event == "PermissionRequest"}
	if h.Handler.If != "" {
		call, why := callForRule(h.Handler.If, m, p.Fail, proj)
		if call == nil {
			p.Skip = why
			return p
		}
		p.Call = call
		if call.Tool == "Edit" {
			p.Pre = readOf(*call)
		}
		return p
	}
	for _, tool := range []string{"Bash", "Write", "Read", "Edit", "Glob", "Grep"} {
		if m.Match(tool) {
			call := builtinCall(tool, p.Fail, proj)
			p.Call = &call
			if tool == "Edit" {
				pre := builtinCall("Read", false, proj)
				p.Pre = &pre
			}
			return p
		}
	}
	if server, tool, ok := mcpToolFor(h.Matcher, m); ok {
		if p.Fail {
			p.Skip = "a failing MCP call is not made by verify yet"
			return p
		}
		p.Server, p.Tool = server, tool
		p.Call = &clientrun.Call{Tool: "mcp__" + server + "__" + tool, Input: `{"probe":"hookctl verify"}`}
		return p
	}
	p.Skip = fmt.Sprintf("matcher %q catches no tool verify calls harmlessly (Bash, Write, Read, Edit, Glob, Grep, an MCP tool)", h.Matcher)
	return p
}

// builtinCall returns the harmless call of tool in the project proj: one
// that only touches the marker file there. fail makes it fail (Bash
// only; the other tools fail on a missing file).
func builtinCall(tool string, fail bool, proj string) clientrun.Call {
	marker := filepath.Join(proj, markerFile)
	in := map[string]any{}
	switch tool {
	case "Bash":
		cmd := "echo '" + markerText + "' > " + markerFile
		if fail {
			cmd += "; exit 3"
		}
		in = map[string]any{"command": cmd, "description": "hookctl verify: write a marker file"}
	case "Write":
		in = map[string]any{"file_path": filepath.Join(proj, writtenFile), "content": markerText + "\n"}
	case "Read":
		if fail {
			marker += ".missing"
		}
		in = map[string]any{"file_path": marker}
	case "Edit":
		if fail {
			marker += ".missing"
		}
		in = map[string]any{"file_path": marker, "old_string": "before", "new_string": "after"}
	case "Glob":
		in = map[string]any{"pattern": markerFile, "path": proj}
	case "Grep":
		in = map[string]any{"pattern": "before", "path": proj}
	}
	b, err := json.Marshal(in, jsonopts.Deterministic())
	if err != nil {
		panic(err) // our own values
	}
	return clientrun.Call{Tool: tool, Input: string(b)}
}

// readOf returns a Read of the file an Edit call edits: Claude Code
// edits only a file the session has read.
func readOf(edit clientrun.Call) *clientrun.Call {
	v, _ := clientrun.ValueAt([]byte(edit.Input), "file_path")
	b := append(append([]byte(`{"file_path":`), v...), '}')
	return &clientrun.Call{Tool: "Read", Input: string(b)}
}

// ruleRE reads a permission rule: Tool or Tool(pattern).
var ruleRE = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_]*)(?:\((.*)\))?$`)

// callForRule returns a harmless call that the handler's "if" rule and
// the matcher m catch, or nil and why there is none. A Bash rule's
// wildcards are filled with the marker file's name, so the command only
// names a file of the scratch project; a rule with no wildcard names one
// exact command, which verify does not run. A file rule must name a file
// inside the project.
func callForRule(rule string, m hook.Matcher, fail bool, proj string) (*clientrun.Call, string) {
	sub := ruleRE.FindStringSubmatch(strings.TrimSpace(rule))
	if sub == nil {
		return nil, fmt.Sprintf("\"if\" rule %q is not a permission rule verify reads", rule)
	}
	tool, pattern := sub[1], sub[2]
	if !m.Match(tool) {
		return nil, fmt.Sprintf("\"if\" rule %q names %s, which the matcher does not catch: the hook never runs", rule, tool)
	}
	switch tool {
	case "Bash":
		if pattern == "" {
			c := builtinCall("Bash", fail, proj)
			return &c, ""
		}
		if !strings.Contains(pattern, "*") {
			return nil, fmt.Sprintf("\"if\" rule %q names one exact command, which verify does not run", rule)
		}
		cmd := strings.Replace(pattern, ":*", " *", 1)
		cmd = strings.ReplaceAll(cmd, "*", markerFile)
		if fail {
			cmd += "; exit 3"
		}
		b, _ := json.Marshal(map[string]string{"command": cmd, "description": "hookctl verify: a command the hook's if rule catches"}, jsonopts.Deterministic())
		return &clientrun.Call{Tool: "Bash", Input: string(b)}, ""
	case "Write", "Read", "Edit":
		if pattern == "" {
			c := builtinCall(tool, fail, proj)
			return &c, ""
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(pattern, "/"), "./")
		if strings.HasPrefix(pattern, "~") || strings.HasPrefix(pattern, "//") || strings.Contains(rel, "..") {
			return nil, fmt.Sprintf("\"if\" rule %q names files outside the project, which verify does not touch", rule)
		}
		rel = strings.ReplaceAll(strings.ReplaceAll(rel, "**", "sub"), "*", "hookctl-verify-marker")
		c := builtinCall(tool, fail, proj)
		var in map[string]any
		if err := json.Unmarshal([]byte(c.Input), &in); err != nil {
			panic(err)
		}
		in["file_path"] = filepath.Join(proj, filepath.FromSlash(rel))
		b, _ := json.Marshal(in, jsonopts.Deterministic())
		c.Input = string(b)
		return &c, ""
	}
	return nil, fmt.Sprintf("\"if\" rule %q names %s, which verify does not call", rule, tool)
}

// mcpServerRE finds the server of an MCP tool matcher.
var mcpServerRE = regexp.MustCompile(`^\^?mcp__([A-Za-z0-9-]+)__([A-Za-z0-9_-]*)`)

// mcpToolFor returns a server and tool whose MCP tool name the matcher
// catches: the ones it names, else a probe tool on the server it names,
// else a probe server of verify's own.
func mcpToolFor(matcher string, m hook.Matcher) (server, tool string, ok bool) {
	var cands [][2]string
	for _, alt := range strings.Split(matcher, "|") {
		if sub := mcpServerRE.FindStringSubmatch(alt); sub != nil {
			if sub[2] != "" {
				cands = append(cands, [2]string{sub[1], sub[2]})
			}
			cands = append(cands, [2]string{sub[1], "hookctl_probe"})
		}
	}
	cands = append(cands, [2]string{"hookctl-probe", "hookctl_probe"})
	for _, c := range cands {
		if m.Match("mcp__" + c[0] + "__" + c[1]) {
			return c[0], c[1], true
		}
	}
	return "", "", false
}

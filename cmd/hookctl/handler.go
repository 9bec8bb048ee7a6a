package main

import (
	"flag"
	"fmt"
	"math"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/settings"
)

// handlerFlags are the install flags that describe the handler.
type handlerFlags struct {
	typ, url, server, tool, input, prompt, model string
	cond, shell, onFail, status                  string
	timeout                                      float64
	headers, allowEnv                            multiFlag
	async, asyncRewake, continueOnBlock, exec    bool
}

// add defines the handler flags on fl.
func (hf *handlerFlags) add(fl *flag.FlagSet) {
	fl.StringVar(&hf.typ, "type", "command", "the handler `TYPE`: command, http, mcp_tool, prompt or agent")
	fl.Float64Var(&hf.timeout, "timeout", 0, "timeout in `SECONDS` (Claude Code reads seconds, not milliseconds)")
	fl.StringVar(&hf.cond, "if", "", "a permission `RULE` narrowing the tool calls, such as \"Bash(git *)\"")
	fl.StringVar(&hf.status, "status-message", "", "spinner `TEXT` while the hook runs")
	fl.StringVar(&hf.onFail, "on-failure", "", "what a failing hook does: continue or block (command, http, mcp_tool)")
	fl.StringVar(&hf.shell, "shell", "", "the shell of a shell-form command: bash or powershell (command)")
	fl.BoolVar(&hf.async, "async", false, "run the hook in the background (command)")
	fl.BoolVar(&hf.asyncRewake, "async-rewake", false, "run the hook in the background and wake the model when it exits 2 (command)")
	fl.BoolVar(&hf.exec, "exec", false, "write the exec form (no shell) even without ARGS (command)")
	fl.StringVar(&hf.url, "url", "", "the `URL` an http hook POSTs its input to (http)")
	fl.Var(&hf.headers, "header", "a request header `\"Name: value\"`; $VAR and ${VAR} are filled from -allow-env (http, repeatable)")
	fl.Var(&hf.allowEnv, "allow-env", "an environment `VAR` that header values may reference (http, repeatable)")
	fl.StringVar(&hf.server, "server", "", "the MCP `SERVER` an mcp_tool hook calls (mcp_tool)")
	fl.StringVar(&hf.tool, "tool", "", "the `TOOL` on that server (mcp_tool)")
	fl.StringVar(&hf.input, "input", "", "the tool's arguments, a JSON `OBJECT`; strings may hold ${tool_input.file_path} (mcp_tool)")
	fl.StringVar(&hf.prompt, "prompt", "", "the `TEXT` a prompt or agent hook evaluates; $ARGUMENTS is the hook's input (prompt, agent)")
	fl.StringVar(&hf.model, "model", "", "the `MODEL` that evaluates the prompt (prompt, agent)")
	fl.BoolVar(&hf.continueOnBlock, "continue-on-block", false, "let the turn go on when the prompt answers ok: false (prompt)")
}

// flagTypes names, for each handler flag that not every type takes, the
// types that take it (the SDK's settings type).
var flagTypes = map[string][]string{
	"url": {"http"}, "header": {"http"}, "allow-env": {"http"},
	"server": {"mcp_tool"}, "tool": {"mcp_tool"}, "input": {"mcp_tool"},
	"prompt": {"prompt", "agent"}, "model": {"prompt", "agent"}, "continue-on-block": {"prompt"},
	"shell": {"command"}, "async": {"command"}, "async-rewake": {"command"}, "exec": {"command"},
	"on-failure": {"command", "http", "mcp_tool"},
}

// handler builds the handler the flags and the words after -- describe,
// or returns why it cannot (a usage error).
func (hf *handlerFlags) handler(fl *flag.FlagSet, rest []string, name string) (settings.Handler, error) {
	typ := hf.typ
	switch typ {
	case "", settings.TypeCommand, settings.TypeHTTP, settings.TypeMCPTool, settings.TypePrompt, settings.TypeAgent:
	default:
		return settings.Handler{}, fmt.Errorf(`unknown -type %q: give command, http, mcp_tool, prompt or agent`, typ)
	}
	var bad []string
	fl.Visit(func(f *flag.Flag) {
		if ts, ok := flagTypes[f.Name]; ok && !slices.Contains(ts, typ) {
			bad = append(bad, fmt.Sprintf("-%s is for -type %s", f.Name, orList(ts)))
		}
	})
	if len(bad) > 0 {
		return settings.Handler{}, fmt.Errorf("%s, not -type %s", strings.Join(bad, "; "), typ)
	}
	if math.IsNaN(hf.timeout) || math.IsInf(hf.timeout, 0) {
		return settings.Handler{}, fmt.Errorf("-timeout %g: give a number of seconds", hf.timeout)
	}
	if hf.timeout < 0 {
		return settings.Handler{}, fmt.Errorf("-timeout %g: give 0 or more seconds (0 is Claude Code's default)", hf.timeout)
	}
	if hf.onFail != "" && hf.onFail != "continue" && hf.onFail != "block" {
		return settings.Handler{}, fmt.Errorf("-on-failure %q: give continue or block", hf.onFail)
	}
	if hf.shell != "" && hf.shell != "bash" && hf.shell != "powershell" {
		return settings.Handler{}, fmt.Errorf("-shell %q: give bash or powershell", hf.shell)
	}
	h := settings.Handler{Type: typ, If: hf.cond, Timeout: hf.timeout, OnFailure: hf.onFail, StatusMessage: hf.status}
	if typ != settings.TypeCommand && len(rest) > 0 {
		return h, fmt.Errorf("a %s handler takes no command after --; give it with flags (hookctl %s -h)", typ, name)
	}
	switch typ {
	case settings.TypeCommand:
		if len(rest) == 0 {
			return h, fmt.Errorf("no command: give it after --, as in: hookctl %s -event Stop -- /path/to/hook", name)
		}
		h.Command, h.Shell, h.Async, h.AsyncRewake = rest[0], hf.shell, hf.async, hf.asyncRewake
		if len(rest) > 1 || hf.exec {
			h.Args = append([]string{}, rest[1:]...)
		}
	case settings.TypeHTTP:
		if hf.url == "" {
			return h, fmt.Errorf("-type http needs -url")
		}
		u, err := url.Parse(hf.url)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return h, fmt.Errorf("-url %q is not an http:// or https:// URL", hf.url)
		}
		h.URL = hf.url
		hs, err := parseHeaders(hf.headers, hf.allowEnv)
		if err != nil {
			return h, err
		}
		h.Headers = hs
		if v := leakedSecret(hs, hf.allowEnv); v != "" {
			return h, fmt.Errorf("a -header holds the value of $%s, not a reference to it (the shell expanded it): refusing to write the secret into the settings file; quote the -header in single quotes", v)
		}
		if len(hf.allowEnv) > 0 {
			h.AllowedEnvVars = slices.Clone([]string(hf.allowEnv))
		}
	case settings.TypeMCPTool:
		if hf.server == "" || hf.tool == "" {
			return h, fmt.Errorf("-type mcp_tool needs -server and -tool")
		}
		h.Server, h.Tool = hf.server, hf.tool
		if hf.input != "" {
			v := jsontext.Value(hf.input)
			if !v.IsValid() || v.Kind() != '{' {
				return h, fmt.Errorf("-input must be one JSON object, such as '{\"path\": \"${tool_input.file_path}\"}'")
			}
			h.Input = v
		}
	case settings.TypePrompt, settings.TypeAgent:
		if strings.TrimSpace(hf.prompt) == "" {
			return h, fmt.Errorf("-type %s needs -prompt", typ)
		}
		h.Prompt, h.Model, h.ContinueOnBlock = hf.prompt, hf.model, hf.continueOnBlock
	}
	return h, nil
}

// orList writes "a", "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// envRef is a variable name a header value may reference.
var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)`)

// headerVars returns the variables a header value references.
func headerVars(v string) []string {
	var names []string
	for _, m := range envRef.FindAllStringSubmatch(v, -1) {
		n := m[1]
		if n == "" {
			n = m[2]
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// parseHeaders reads -header "Name: value" flags. A value that references
// a variable not in allow is refused: Claude Code would send it empty.
func parseHeaders(raw, allow []string) ([]settings.Header, error) {
	var hs []settings.Header
	for _, r := range raw {
		name, value, ok := strings.Cut(r, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" || strings.ContainsAny(name, " \t\"(),/;<=>?@[\\]{}") {
			return nil, fmt.Errorf(`-header %q: write it as "Name: value"`, r)
		}
		if slices.ContainsFunc(hs, func(h settings.Header) bool { return strings.EqualFold(h.Name, name) }) {
			return nil, fmt.Errorf("-header %s is given twice", name)
		}
		value = strings.TrimLeft(value, " \t")
		for _, v := range headerVars(value) {
			if !slices.Contains(allow, v) {
				return nil, fmt.Errorf("-header %s references $%s, which is not in -allow-env: Claude Code would send it empty; add -allow-env %s", name, v, v)
			}
		}
		hs = append(hs, settings.Header{Name: name, Value: value})
	}
	return hs, nil
}

// leakedSecret names a variable of allow whose value is written into a
// header literally: the shell expanded "$VAR" before hookctl saw it, and
// the secret would be stored in the settings file.
func leakedSecret(hs []settings.Header, allow []string) string {
	for _, v := range allow {
		val := os.Getenv(v)
		if len(val) < 8 {
			continue
		}
		for _, h := range hs {
			if strings.Contains(h.Value, val) {
				return v
			}
		}
	}
	return ""
}

// onFailureIgnored says why Claude Code ignores the onFailure of h on
// event ("" when it does not): async hooks, events whose block stops
// nothing, and for mcp_tool also Setup and SessionStart (the SDK's
// settings type).
func onFailureIgnored(event string, h settings.Handler) string {
	if h.OnFailure == "" {
		return ""
	}
	if h.Async || h.AsyncRewake {
		return "an async hook cannot block: Claude Code ignores onFailure on it"
	}
	switch event {
	case "Stop", "SubagentStop", "TaskCompleted", "TeammateIdle":
		return fmt.Sprintf("Claude Code ignores onFailure on %s", event)
	case "Setup", "SessionStart":
		if h.Type == settings.TypeMCPTool {
			return fmt.Sprintf("Claude Code ignores onFailure of an mcp_tool hook on %s", event)
		}
	}
	return ""
}

// backslashPath returns the first word of a shell command line, as
// written, that holds a backslash outside quotes before a letter, a digit
// or "_": a Windows path such as C:\hooks\guard.exe, \\server\share\g.exe,
// .\g.exe or "$CLAUDE_PROJECT_DIR"\hooks\g.exe. Bash (Git Bash runs
// shell-form hooks on Windows) reads such a backslash as an escape and
// drops it: C:\hooks\guard.exe runs as C:hooksguard.exe. Backslashes in
// single or double quotes are kept and not reported.
func backslashPath(cmd string) string {
	start, bad := -1, false
	for i := 0; i <= len(cmd); i++ {
		if i == len(cmd) || strings.IndexByte(" \t\n;&|<>()", cmd[i]) >= 0 {
			if start >= 0 && bad {
				return cmd[start:i]
			}
			start, bad = -1, false
			continue
		}
		if start < 0 {
			start = i
		}
		switch c := cmd[i]; c {
		case '\'', '"':
			j := strings.IndexByte(cmd[i+1:], c)
			if c == '"' {
				j = closingQuote(cmd[i+1:])
			}
			if j < 0 {
				return ""
			}
			i += j + 1
		case '\\':
			if i+1 < len(cmd) && isWordChar(cmd[i+1]) {
				bad = true
			}
			i++ // the escaped character
		}
	}
	return ""
}

// closingQuote returns the index in s of the double quote that closes a
// double-quoted string, skipping escaped characters, or -1.
func closingQuote(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

// isWordChar reports a letter, a digit or "_": what a backslash never needs
// to escape in bash.
func isWordChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

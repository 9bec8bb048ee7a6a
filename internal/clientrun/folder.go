package clientrun

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
)

// This file holds the set-up of one run that claudetest and codextest
// share: the run's folder, the project's files, the hook commands behind
// the recorder, the MCP probes' configuration and the fake model's script,
// each checked the same way for both clients.

// Folder is one run's folder: Dir holds the fresh HOME (Home), the project
// (Project, the client's working directory), the hook records, the MCP
// probes' configurations and logs, the fake API's log and the client's
// output. Exe is the test binary, which the client starts as the hook
// recorder and the MCP probes with the environment variable Helper set.
type Folder struct {
	Dir, Home, Project string
	Exe, Helper        string
}

// MakeFolder makes home/, proj/ and the records folder in dir, for the
// test binary exe and its helper variable helper. Home and Project have
// their symbolic links resolved, as the client and its hooks see them.
func MakeFolder(dir, exe, helper string) (Folder, error) {
	f := Folder{Dir: dir, Exe: exe, Helper: helper}
	for _, d := range []string{filepath.Join(dir, "home"), filepath.Join(dir, "proj"), f.CapDir()} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return Folder{}, err
		}
	}
	var err error
	if f.Home, err = filepath.EvalSymlinks(filepath.Join(dir, "home")); err != nil {
		return Folder{}, err
	}
	if f.Project, err = filepath.EvalSymlinks(filepath.Join(dir, "proj")); err != nil {
		return Folder{}, err
	}
	return f, nil
}

// CapDir is the folder of the hook records.
func (f Folder) CapDir() string { return filepath.Join(f.Dir, "cap") }

// ProbeLog is the log of the calls the MCP server named server received.
func (f Folder) ProbeLog(server string) string {
	return filepath.Join(f.Dir, "mcp-"+server+".log")
}

// ProjectFile returns the path of the project file rel (slash-separated),
// refusing one that is not a relative path inside the project (on every
// platform: "/x" and "C:x" are refused on Windows too).
func (f Folder) ProjectFile(rel string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(rel))
	if rel == "" || strings.HasPrefix(rel, "/") || filepath.IsAbs(clean) || clean == "." || clean == ".." ||
		strings.HasPrefix(clean, ".."+string(filepath.Separator)) || filepath.VolumeName(clean) != "" {
		return "", fmt.Errorf("Session.Files: %q is not a relative path inside the project", rel)
	}
	return filepath.Join(f.Project, clean), nil
}

// WriteFiles creates files (Session.Files: relative path to content) in
// the project, with their folders.
func (f Folder) WriteFiles(files map[string]string) error {
	for rel, content := range files {
		p, err := f.ProjectFile(rel)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ShellQuote quotes s for a POSIX shell.
func ShellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// recorder returns the start of every hook command: the recorder with
// the records folder, each word quoted.
func (f Folder) recorder() string {
	return f.Helper + "=hooktap " + ShellQuote(f.Exe) + " " + ShellQuote(f.CapDir()) + " "
}

// HookCommand returns the configured command of the hook named name: the
// recorder, then the hook's argv (none for a recorder alone), each word
// quoted for the client's shell.
func (f Folder) HookCommand(name string, argv []string) string {
	words := []string{ShellQuote(name)}
	for _, w := range argv {
		words = append(words, ShellQuote(w))
	}
	return f.recorder() + strings.Join(words, " ")
}

// WithoutRecorder returns line with the recorder's part of every hook
// command left out, so that a command reads as the hook's argv.
func (f Folder) WithoutRecorder(line string) string {
	return strings.ReplaceAll(line, f.recorder(), "")
}

// CheckHook checks hook i of a Session (named name): it has an event, a
// non-empty Command[0] if any, and no negative timeout. It returns the
// command with a relative Command[0] that names a file (it has a slash)
// made absolute from the test's working directory, since the client runs
// hooks in the project; a name found in PATH stays.
func CheckHook(i int, name, event string, command []string, timeout int) ([]string, error) {
	switch {
	case event == "":
		return nil, fmt.Errorf("Session.Hooks[%d] has no Event", i)
	case len(command) > 0 && command[0] == "":
		return nil, fmt.Errorf("Session.Hooks[%d] (%s) has an empty Command[0]", i, name)
	case timeout < 0:
		return nil, fmt.Errorf("Session.Hooks[%d] (%s) has a negative Timeout", i, name)
	}
	if len(command) > 0 && !filepath.IsAbs(command[0]) && strings.ContainsAny(command[0], `/\`) {
		abs, err := filepath.Abs(command[0])
		if err != nil {
			return nil, err
		}
		return append([]string{abs}, command[1:]...), nil
	}
	return command, nil
}

// HookGroup is a matcher group of a settings file or hooks.json.
type HookGroup struct {
	Matcher string           `json:"matcher,omitempty"`
	Hooks   []map[string]any `json:"hooks"`
}

// HookSpec is one hook as the client's configuration registers it.
type HookSpec struct {
	Event, Matcher string
	// Options are more members of the entry; Handler the members that
	// make it run (type and command, or type and url), which win.
	Options, Handler map[string]any
	// Timeout, if positive, is the entry's timeout; else Options' or 30.
	Timeout int
}

// HooksConfig returns the "hooks" member of the configuration: each hook
// in a matcher group of its own, in order.
func HooksConfig(hooks []HookSpec) map[string][]HookGroup {
	out := map[string][]HookGroup{}
	for _, h := range hooks {
		entry := map[string]any{}
		for k, v := range h.Options {
			entry[k] = v
		}
		for k, v := range h.Handler {
			entry[k] = v
		}
		if _, ok := entry["timeout"]; !ok {
			entry["timeout"] = 30
		}
		if h.Timeout > 0 {
			entry["timeout"] = h.Timeout
		}
		out[h.Event] = append(out[h.Event], HookGroup{Matcher: h.Matcher, Hooks: []map[string]any{entry}})
	}
	return out
}

// WriteJSONFile writes v, indented, to path.
func WriteJSONFile(path string, v any) error {
	b, err := json.Marshal(v, jsonopts.Deterministic())
	if err != nil {
		return err
	}
	if err := (*jsontext.Value)(&b).Indent(); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// MCPTool is the shape of a Session's MCP tool in claudetest and
// codextest.
type MCPTool = struct {
	Name        string
	Description string
	Schema      string
	Reply       string
}

// WriteProbe checks the tools of the Session's MCP server i, named server,
// and writes the probe's configuration for them: each tool with its name
// as its description, {"type":"object"} as its schema and "ok" as its
// reply unless it gives its own. It returns the configuration's path, the
// probe's one argument.
func WriteProbe[T ~MCPTool](f Folder, i int, server string, tools []T) (string, error) {
	cfg := ProbeConfig{Name: server, Log: f.ProbeLog(server)}
	for _, t := range tools {
		tl := MCPTool(t)
		if tl.Name == "" {
			return "", fmt.Errorf("Session.MCP[%d] has a tool without a name", i)
		}
		if tl.Schema != "" && !jsontext.Value(tl.Schema).IsValid() {
			return "", fmt.Errorf("Session.MCP[%d] tool %q: Schema is not JSON: %.80q", i, tl.Name, tl.Schema)
		}
		pt := ProbeTool{Name: tl.Name, Description: tl.Description, InputSchema: jsontext.Value(tl.Schema), Reply: tl.Reply}
		if pt.Description == "" {
			pt.Description = tl.Name
		}
		if len(pt.InputSchema) == 0 {
			pt.InputSchema = jsontext.Value(`{"type":"object"}`)
		}
		if pt.Reply == "" {
			pt.Reply = "ok"
		}
		cfg.Tools = append(cfg.Tools, pt)
	}
	path := filepath.Join(f.Dir, "mcp-"+server+".json")
	return path, WriteJSONFile(path, cfg)
}

// ProbeCall is one call an MCP probe logged.
type ProbeCall struct {
	// Tool is the tool's name on the server; Arguments the call's
	// arguments as the client sent them, byte for byte.
	Tool      string
	Arguments jsontext.Value
	// ToolUseID is the call's id where the client named it ("" where not).
	ToolUseID string
}

// ReadProbeLog returns the calls the MCP server named server logged, in
// order; none when it logged nothing.
func (f Folder) ReadProbeLog(server string) ([]ProbeCall, error) {
	b, err := os.ReadFile(f.ProbeLog(server))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []ProbeCall
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var pc ProbeCall
		name, ok1 := Member(line, "name")
		args, ok2 := Member(line, "arguments")
		if !ok1 || !ok2 || Unmarshal(name, &pc.Tool) != nil {
			return nil, fmt.Errorf("bad MCP probe log line %.80q", line)
		}
		pc.Arguments = args
		if v, ok := Member(line, "tool_use_id"); ok {
			Unmarshal(v, &pc.ToolUseID)
		}
		out = append(out, pc)
	}
	return out, nil
}

// ScriptCalls checks the Session's turns of tool calls and returns them as
// the fake model's script, and all in order: each turn makes a call, each
// call names its tool and its Input is a JSON object, in which every
// placeholder is replaced with project escaped for a JSON string.
func ScriptCalls[C ~struct {
	Tool  string
	Input string
}, T ~[]C](turns []T, placeholder, project string) ([]Call, [][]Call, error) {
	q, _ := json.Marshal(project)
	esc := string(q[1 : len(q)-1])
	var all []Call
	var script [][]Call
	for i, turn := range turns {
		if len(turn) == 0 {
			return nil, nil, fmt.Errorf("Session.Turns[%d] makes no call (the final text is Session.Final)", i)
		}
		var calls []Call
		for _, c := range turn {
			c := Call(c)
			if c.Tool == "" {
				return nil, nil, fmt.Errorf("call %d has no Tool", len(all)+1)
			}
			c.Input = strings.ReplaceAll(c.Input, placeholder, esc)
			if !jsontext.Value(c.Input).IsValid(jsonopts.Read()) || !strings.HasPrefix(strings.TrimSpace(c.Input), "{") {
				return nil, nil, fmt.Errorf("call %d (%s): Input is not a JSON object: %.80q", len(all)+1, c.Tool, c.Input)
			}
			all = append(all, c)
			calls = append(calls, c)
		}
		script = append(script, calls)
	}
	return all, script, nil
}

// OpenLog creates the fake API's log in the run's folder.
func (f Folder) OpenLog() (*os.File, error) {
	return os.OpenFile(filepath.Join(f.Dir, "api.log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
}

// Told reports whether any of the requests carries text, as sent.
func Told(requests []jsontext.Value, text string) bool {
	for _, b := range requests {
		if bytes.Contains(b, []byte(text)) {
			return true
		}
	}
	return false
}

// ReadProjectFile returns the content of the file rel (slash-separated)
// under project, and whether it exists.
func ReadProjectFile(project, rel string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(project, filepath.FromSlash(rel)))
	return string(b), err == nil
}

// ToolInput returns the JSON text of a tool call's input for the Tool
// function of package pkg: a string, []byte or jsontext.Value as is, any
// other value encoded as JSON (a map with its keys sorted). It panics,
// naming pkg's Tool and the tool name, when input cannot be encoded.
func ToolInput(pkg, name string, input any) string {
	switch in := input.(type) {
	case string:
		return in
	case []byte:
		return string(in)
	case jsontext.Value:
		return string(in)
	}
	b, err := json.Marshal(input, jsonopts.Deterministic())
	if err != nil {
		panic(fmt.Sprintf("%s.Tool(%q): %v", pkg, name, err))
	}
	return string(b)
}

// HookKey is what a result's methods look a hook run up by: the hook's
// name, and the event and tool of its payload.
type HookKey struct{ Name, Event, Tool string }

// HooksOf returns the runs among hooks of the hook named name for event,
// in order; key gives a run's [HookKey].
func HooksOf[H any](hooks []H, key func(H) HookKey, name, event string) []H {
	var out []H
	for _, h := range hooks {
		if k := key(h); k.Name == name && k.Event == event {
			out = append(out, h)
		}
	}
	return out
}

// Events returns the events of hooks, in order, as "Event" or
// "Event:Tool".
func Events[H any](hooks []H, key func(H) HookKey) []string {
	out := make([]string, 0, len(hooks))
	for _, h := range hooks {
		k := key(h)
		if k.Tool != "" {
			out = append(out, k.Event+":"+k.Tool)
		} else {
			out = append(out, k.Event)
		}
	}
	return out
}

// NthCall returns the n-th of calls (1-based) for pkg's Result.Call; it
// panics when there is none, as an index out of range would.
func NthCall[C any](pkg string, calls []C, n int) C {
	if n < 1 || n > len(calls) {
		panic(fmt.Sprintf("%s: Result.Call(%d): the script has %d calls", pkg, n, len(calls)))
	}
	return calls[n-1]
}

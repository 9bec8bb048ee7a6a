package claudetest

import (
	"net/http"
	"path"
	"strings"

	"github.com/gohooks/hook/internal/clientrun"
)

// Session is one headless Claude Code run: the project it runs in, the
// hooks under test, optional MCP servers, and the script the fake model
// plays. The zero Session runs the prompt, gets the text "done" and ends.
type Session struct {
	// Files are created in the project folder before Claude Code starts:
	// slash-separated relative path → content. Parent folders are made as
	// needed; a path that leaves the project is an error.
	Files map[string]string
	// Setup, if set, runs after Files are written, with the project
	// folder, for what Files cannot do (git init, files next to the
	// project). The project's parent folder belongs to the run too.
	Setup func(project string) error

	// Hooks are registered in the project's .claude/settings.json, in
	// order, each in a matcher group of its own.
	Hooks []Hook
	// Allow is the project's permissions.allow list. Nil means Bash, Read,
	// Write, Edit and every tool of the MCP servers; an empty, non-nil
	// list allows nothing, so that every other tool call goes through
	// the permission flow (which -p refuses unless a hook allows it).
	Allow []string
	// Settings holds more members of .claude/settings.json, such as
	// "env" or "allowedHttpHookUrls"; "hooks" and "permissions" come from
	// Hooks and Allow and may not be set here, nor anything that would
	// point Claude Code at another API or a proxy (env ANTHROPIC_*,
	// *_PROXY, CLAUDE_CODE_USE_*, OTEL_*, apiKeyHelper, …).
	Settings map[string]any
	// MCP are stdio MCP servers offered to the model; each records the
	// arguments of every call it gets, byte for byte.
	MCP []MCPServer
	// PluginDirs are plugin folders Claude Code loads for this run
	// only, each given to claude as --plugin-dir DIR (the way a plugin
	// author tries a plugin from its folder). Their hooks run as Claude
	// Code runs them, without claudetest's recorder, so they do not
	// show in [Result.Hooks]; a relative path is taken from the test's
	// working directory.
	PluginDirs []string

	// Prompt is the user prompt (default "go").
	Prompt string
	// Turns are what the fake model does: one assistant message per
	// turn, each making its calls together. After the last turn it
	// answers Final.
	Turns []Turn
	// Final is the model's last text (default "done"). It is also the
	// answer to every later request, such as the one after a Stop hook
	// kept Claude going.
	Final string

	// InterruptWhen, if set, is a project file (a slash-separated
	// relative path) whose appearance interrupts the turn, as an SDK
	// program's interrupt() or an app's Stop button does: claudetest
	// sends Claude Code a stream-json interrupt control request once the
	// file exists, and Claude Code fires Interrupt (source "user", reason
	// "stop", via "client"). Have a call's tool create it to stop the
	// turn while that tool runs: Bash("touch started && sleep 60") with
	// InterruptWhen "started". Claude Code then reads the prompt as
	// stream-json from stdin (--input-format stream-json), ends the turn
	// with an error result and exits 1, which [Run] expects; [Run] fails
	// the test when the file never appeared. See [Result].Interrupted.
	// Claude Code does not wait for its Interrupt hooks, so when the
	// session has one, claudetest keeps stdin open after the result
	// until one of them finished (or claude exited, or the run's limit
	// passed): the hook is seen whole, also on a loaded machine.
	InterruptWhen string
}

// Hook is one hook under test: a command hook (Command), an http hook
// (Handler), or neither, a recorder that answers nothing and only shows
// in the [Result] when and with what its event fired. Every hook runs
// through a recorder that keeps its payload, answer and exit code (see
// [HookRun]).
type Hook struct {
	// Event is the hook event, e.g. "PreToolUse".
	Event string
	// Matcher is the matcher of its settings group ("" for events without
	// one, or to match every tool).
	Matcher string
	// Command is the hook's argv, such as the path hooktest.BuildGo
	// returns; it is run directly, not through a shell (use
	// {"sh", "-c", script} for one). A relative Command[0] with a slash
	// ("./hook.sh") is taken in the test's working directory; other
	// arguments are passed as they are, and the hook runs in the project
	// folder, so give files in arguments as absolute paths.
	Command []string
	// Handler makes an http hook: claudetest serves it on 127.0.0.1 for
	// the run and registers its URL. (Claude Code takes no http hooks for
	// SessionStart and Setup.)
	Handler http.Handler
	// Name names the hook in the Result (default: the base name of
	// Command[0], "http" for a Handler, "record" for neither).
	Name string
	// Timeout is the hook's timeout in seconds (default 30).
	Timeout int
	// Options are more members of the hook's settings entry, such as
	// "onFailure", "async" or "statusMessage".
	Options map[string]any
}

// name returns the hook's name in the Result.
func (h Hook) name() string {
	switch {
	case h.Name != "":
		return h.Name
	case len(h.Command) > 0:
		return path.Base(strings.ReplaceAll(h.Command[0], `\`, "/"))
	case h.Handler != nil:
		return "http"
	}
	return "record"
}

// MCPServer is a stdio MCP server offering Tools. Each call's arguments
// are recorded exactly as Claude Code sent them (see [MCPCall]), and the
// call is answered with the tool's Reply.
type MCPServer struct {
	// Name is the server's name: the model calls its tools as
	// mcp__<Name>__<tool> (see [MCP]).
	Name string
	// Tools are the tools it offers.
	Tools []MCPTool
}

// MCPTool is one tool of an [MCPServer].
type MCPTool struct {
	// Name is the tool's name on the server.
	Name string
	// Description is its description (default: the name).
	Description string
	// Schema is the JSON text of its inputSchema (default
	// {"type":"object"}, which takes any object). Claude Code checks the
	// model's input, and a hook's updatedInput, against it.
	Schema string
	// Reply is the text of every result it returns (default "ok").
	Reply string
}

// Turn is one assistant message: the tool calls the model makes together.
type Turn []Call

// Call is one tool call the fake model makes.
type Call struct {
	// Tool is the tool's name as the model calls it: "Bash", "Write",
	// "mcp__probe__listen_here", ….
	Tool string
	// Input is the exact JSON text of the call's input object, as the
	// model writes it; Claude Code parses it with JSON.parse, so escapes
	// such as \ud800 reach it as written. Each [ProjectDir] in it is
	// replaced with the run's project folder (escaped for a JSON string).
	Input string
}

// ProjectDir in a [Call]'s Input stands for the run's project folder.
const ProjectDir = "@PROJECT@"

// Bash returns a call of the Bash tool that runs command.
func Bash(command string) Call {
	return Tool("Bash", map[string]string{"command": command, "description": "claudetest step"})
}

// Write returns a call of the Write tool that writes content to file; a
// relative file is taken in the project folder.
func Write(file, content string) Call {
	return Tool("Write", map[string]string{"file_path": projectPath(file), "content": content})
}

// Read returns a call of the Read tool; a relative file is taken in the
// project folder.
func Read(file string) Call {
	return Tool("Read", map[string]string{"file_path": projectPath(file)})
}

// MCP returns a call of the tool of the MCP server named server, with
// input as in [Tool].
func MCP(server, tool string, input any) Call {
	return Tool("mcp__"+server+"__"+tool, input)
}

// Tool returns a call of the tool name. An input of type string, []byte
// or jsontext.Value is the input's JSON text as is; any other value is
// encoded as JSON (a map with its keys sorted). It panics when input
// cannot be encoded.
func Tool(name string, input any) Call {
	return Call{Tool: name, Input: clientrun.ToolInput("claudetest", name, input)}
}

// projectPath returns file as a path under [ProjectDir] unless it is
// absolute.
func projectPath(file string) string {
	if path.IsAbs(file) || strings.HasPrefix(file, ProjectDir) || (len(file) > 2 && file[1] == ':') {
		return file
	}
	return ProjectDir + "/" + file
}

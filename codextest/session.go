package codextest

import (
	"path"
	"strings"

	"github.com/gohooks/hook/internal/clientrun"
)

// Session is one headless Codex run (`codex exec`): the project it runs
// in, the hooks under test, optional MCP servers, and the script the fake
// model plays. The zero Session runs the prompt, gets the text "done" and
// ends.
type Session struct {
	// Files are created in the project folder before Codex starts:
	// slash-separated relative path → content. Parent folders are made as
	// needed; a path that leaves the project is an error.
	Files map[string]string
	// Setup, if set, runs after Files, config.toml and hooks.json are
	// written, with the run's CODEX_HOME (also its HOME) and the project
	// folder, for what the other fields cannot do: install a hook with a
	// tool of your own, trust the project so that Codex reads its
	// .codex/ layer. Hooks that Setup installs run as Codex runs them,
	// without codextest's recorder, so they do not show in
	// [Result.Hooks].
	Setup func(home, project string) error

	// Hooks are registered in $CODEX_HOME/hooks.json (the user layer), in
	// order, each in a matcher group of its own. With none, codextest
	// writes no hooks.json.
	Hooks []Hook
	// Config is more TOML for $CODEX_HOME/config.toml. It goes after
	// codextest's top-level keys (model, model_provider) and before its
	// tables ([model_providers.codextest], [mcp_servers.<name>]), so its
	// own top-level keys are top-level and it may add tables, such as
	// [projects.'<dir>'] or [features]; setting one of codextest's keys
	// or tables again makes Codex refuse the file. The model, the
	// provider, hooks on, and plugins, apps, update checks and analytics
	// off are also given on codex's command line, where no Config can
	// override them.
	Config string
	// MCP are stdio MCP servers offered to the model; each records the
	// arguments of every call it gets, byte for byte.
	MCP []MCPServer

	// CheckTrust runs Codex with its hook trust checked, as a user runs
	// it: only the hooks whose trusted hash config.toml records run
	// (install them in Setup with `hookctl install -agent codex -trust`,
	// or write the [hooks.state] entries). By default the check is
	// bypassed (--dangerously-bypass-hook-trust), so that every hook of
	// the session runs.
	CheckTrust bool

	// Prompt is the user prompt (default "go").
	Prompt string
	// Turns are what the fake model does: one response per turn, each
	// making its calls together. After the last turn it answers Final.
	Turns []Turn
	// Final is the model's last text (default "done"). It is also the
	// answer to every later request, such as the one after a Stop hook
	// kept Codex going.
	Final string
}

// Hook is one command hook under test, or a recorder that answers nothing
// and only shows in the [Result] when and with what its event fired.
// Every hook runs through a recorder that keeps its payload, answer and
// exit code (see [HookRun]). (Codex runs command hooks only.)
type Hook struct {
	// Event is the hook event, e.g. "PreToolUse".
	Event string
	// Matcher is the matcher of its group ("" for events without one, or
	// to match every tool). Codex matches its shell tool as "Bash".
	Matcher string
	// Command is the hook's argv, such as the path hooktest.BuildGo
	// returns; it is run directly, not through a shell (use
	// {"sh", "-c", script} for one). A relative Command[0] with a slash
	// ("./hook.sh") is taken in the test's working directory; other
	// arguments are passed as they are, and the hook runs in the project
	// folder, so give files in arguments as absolute paths. Empty makes
	// a recorder.
	Command []string
	// Name names the hook in the Result (default: the base name of
	// Command[0], "record" for a recorder).
	Name string
	// Timeout is the hook's timeout in seconds (default 30).
	Timeout int
	// Options are more members of the hook's hooks.json entry, such as
	// "statusMessage" or "async".
	Options map[string]any
}

// name returns the hook's name in the Result.
func (h Hook) name() string {
	switch {
	case h.Name != "":
		return h.Name
	case len(h.Command) > 0:
		return path.Base(strings.ReplaceAll(h.Command[0], `\`, "/"))
	}
	return "record"
}

// MCPServer is a stdio MCP server offering Tools. Each call's arguments
// are recorded exactly as Codex sent them (see [MCPCall]), and the call
// is answered with the tool's Reply.
type MCPServer struct {
	// Name is the server's name: hooks see its tools as
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
	// {"type":"object"}, which takes any object).
	Schema string
	// Reply is the text of every result it returns (default "ok").
	Reply string
}

// Turn is one model response: the tool calls the model makes together.
type Turn []Call

// Call is one tool call the fake model makes.
type Call struct {
	// Tool is the tool's name as the model calls it: "exec_command" (the
	// shell, which hooks see as "Bash"), "mcp__<server>__<tool>" for an
	// MCP tool (sent in the namespace Codex offers the server's tools
	// in), ….
	Tool string
	// Input is the exact JSON text of the call's arguments object, as the
	// model writes it. Each [ProjectDir] in it is replaced with the run's
	// project folder (escaped for a JSON string).
	Input string
}

// ProjectDir in a [Call]'s Input stands for the run's project folder.
const ProjectDir = "@PROJECT@"

// Bash returns a call of Codex's shell tool (exec_command) that runs
// command, not as a login shell. Hooks see it as the tool "Bash" with the
// tool_input {"command": command}, and only that member.
func Bash(command string) Call {
	return Tool("exec_command", map[string]any{"cmd": command, "login": false})
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
	return Call{Tool: name, Input: clientrun.ToolInput("codextest", name, input)}
}

// Command hookctl installs, lists and diagnoses Claude Code hooks in
// settings files and plugins, changing nothing in them but the entry it
// adds or removes.
//
// Usage:
//
//	hookctl install   [selection] -event EVENT [-matcher M] [-timeout S] [-if RULE] [-dry-run] -- COMMAND [ARGS...]
//	hookctl install   [selection] -event EVENT -type http -url URL [-header "Name: value"]... [-allow-env VAR]...
//	hookctl install   [selection] -event EVENT -type mcp_tool -server S -tool T [-input JSON]
//	hookctl install   [selection] -event EVENT -type prompt|agent -prompt TEXT [-model M]
//	hookctl uninstall [selection] -event EVENT [-matcher M] [-if RULE] [-shell SH] [-dry-run] -- COMMAND [ARGS...]
//	hookctl uninstall [selection] -event EVENT [-matcher M] [-if RULE] -type TYPE -url URL | -server S -tool T | -prompt TEXT
//	hookctl list      [-json] [-project DIR] [-plugin DIR]...
//	hookctl doctor    [-json] [-project DIR] [-plugin DIR]...
//	hookctl verify    [-json] [-project DIR] [-plugin DIR]... [-claude PATH | -version V] [-fail crash|hang]
//	hookctl plugin build -dir PLUGIN_DIR -event EVENT [-matcher M] [-name NAME] [-on-failure block] PACKAGE
//
// The selection is one of -scope user|project|local (default project),
// -settings FILE or -plugin DIR (the plugin's hooks/hooks.json). With ARGS
// the handler is written in exec form ("command" plus "args"), which runs
// without a shell, so it works the same on Windows; with COMMAND alone it
// is a shell command line. In a plugin, paths inside the plugin are written
// as ${CLAUDE_PLUGIN_ROOT}/... . The other handler types of Claude Code
// (http, mcp_tool, prompt, agent) are written with -type and their flags;
// uninstall finds a handler by its type and what it runs (the command, the
// url, the server and tool, or the prompt), whatever its options, and
// gives back the bytes install found: install records, per file, the
// containers it found empty and whether the file existed, in
// hookctl/installs.json under the user's configuration folder. Only a
// regular file (or a link to one, or nothing) is read or written: a
// device, named pipe, socket, directory or dangling link is refused.
//
// list prints every hook Claude Code would load for the project — managed,
// user, project and local settings, then the installed plugins it loads
// (enabled, and from a marketplace it knows), and each -plugin DIR as
// claude --plugin-dir loads it — with the file and line it comes from.
// doctor checks the same hooks and prints each finding with its file:line
// and the fix; it exits 1 when any finding is an error. verify runs the
// real Claude Code headless against a fake model on 127.0.0.1, once per
// hook, in a scratch home and project that carry the user's settings and
// plugins with that hook alone behind a recorder, makes the one harmless
// call its matcher catches, and reports whether it fired, what it
// answered and did, and its time; it exits 1 when a hook that should have
// fired did not (docs/hookctl.md).
//
// Files are found as Claude Code finds them: $CLAUDE_CONFIG_DIR (else
// $HOME/.claude) for the user settings and plugins/installed_plugins.json
// ($CLAUDE_CODE_PLUGIN_CACHE_DIR overrides the plugins folder), and the
// project folder (-project, else the current folder) for .claude/. The
// managed settings are read from the system folder Claude Code uses
// (/etc/claude-code on Linux), or from $HOOKCTL_MANAGED_DIR when set.
//
// With -agent codex, install, uninstall, list and doctor work on the
// OpenAI Codex CLI's hooks instead: the hooks.json of its user layer
// ($CODEX_HOME, else ~/.codex; -scope user) or project layer (.codex/;
// -scope project, the default), edited as losslessly, and the hooks of
// each layer's config.toml, which hookctl reads and never writes.
//
// With -agent copilot, they work on the GitHub Copilot CLI's hooks files:
// ~/.copilot/hooks/hooks.json (-scope user, the default) or the project's
// .github/hooks/hooks.json (-scope project), or -settings FILE, in
// Copilot's format ({"version": 1, "hooks": {EVENT: [{"type": "command",
// "bash": …, "timeoutSec": N}]}}), edited in place byte for byte outside
// the handler added or removed. Only the PascalCase events under which
// Copilot sends Claude-shaped payloads are installed; list and doctor
// read every *.json of both folders.
//
// plugin build turns a hook's main package into a Claude Code plugin: it
// cross-compiles it static and reproducible for linux, darwin and windows
// on amd64 and arm64 into DIR/bin/NAME-GOOS-GOARCH[.exe], writes
// DIR/.claude-plugin/plugin.json when missing, and adds to DIR's
// hooks/hooks.json (losslessly) one entry whose command picks the binary
// of the system it runs on from the shell's own variables and execs it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gohooks/hook/internal/clientrun"
)

func main() {
	if len(os.Args) > 1 {
		// The helpers verify has Claude Code start: the hook recorder and
		// the probe MCP server; and the one it starts Claude Code through
		// to show it scratch managed settings.
		switch os.Args[1] {
		case "__tap":
			os.Exit(cmdTap(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
		case "__probe":
			os.Exit(clientrun.ProbeMain(os.Args[2:]))
		case managedHelper:
			os.Exit(cmdManagedNS(os.Args[2:], os.Stderr))
		}
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage:
  hookctl install   [-scope user|project|local | -settings FILE | -plugin DIR] -event EVENT
                    [-matcher M] [-timeout S] [-if RULE] [-status-message TEXT] [-dry-run]
                    [-type command] [-shell bash|powershell] [-on-failure continue|block]
                    [-async | -async-rewake] [-exec] -- COMMAND [ARGS...]
                  | -type http -url URL [-header "Name: value"]... [-allow-env VAR]... [-on-failure ...]
                  | -type mcp_tool -server S -tool T [-input JSON] [-on-failure ...]
                  | -type prompt|agent -prompt TEXT [-model M] [-continue-on-block]
  hookctl uninstall [same selection] -event EVENT [-matcher M] [-if RULE] [-shell SH] [-dry-run]
                    -- COMMAND [ARGS...] | -type TYPE -url URL | -server S -tool T | -prompt TEXT
  hookctl list      [-json] [-project DIR] [-plugin DIR]...
  hookctl doctor    [-json] [-project DIR] [-plugin DIR]...
  hookctl verify    [-json] [-project DIR] [-plugin DIR]... [-claude PATH | -version V]
                    [-fail crash|hang] [-netns auto|on|off] [-keep DIR] [-limit D]
  hookctl install|uninstall|list|doctor -agent codex ...   (Codex's hooks.json; see -h)
  hookctl install|uninstall|list|doctor -agent copilot ... (GitHub Copilot CLI's hooks files; see -h)
  hookctl plugin build -dir PLUGIN_DIR -event EVENT [-matcher M] [-name NAME] [-targets LIST]
                    [-shell bash|powershell] [-on-failure continue|block] PACKAGE
Run "hookctl COMMAND -h" for the flags of one command.
`

// errUsage reports a command line that could not be used; the message was
// printed already.
var errUsage = errors.New("usage")

// run runs hookctl with args and returns its exit code: 0, 1 for a
// failure (or a doctor error), 2 for a bad command line.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "install":
		err = cmdInstall(args[1:], stdout, stderr, false)
	case "uninstall":
		err = cmdInstall(args[1:], stdout, stderr, true)
	case "list":
		err = cmdList(args[1:], stdout, stderr)
	case "doctor":
		err = cmdDoctor(args[1:], stdout, stderr)
	case "plugin":
		err = cmdPlugin(args[1:], stdout, stderr)
	case "verify":
		err = cmdVerify(args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "hookctl: unknown command %q\n%s", args[0], usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	case errors.Is(err, errFindings), errors.Is(err, errNotFired):
		return 1
	}
	fmt.Fprintf(stderr, "hookctl: %v\n", err)
	return 1
}

// newFlags returns a flag set for command name whose errors go to stderr.
func newFlags(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("hookctl "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseFlags parses args with fs, turning a flag error into errUsage.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	return nil
}

// usageErr prints a usage message and returns errUsage.
func usageErr(stderr io.Writer, name, format string, args ...any) error {
	fmt.Fprintf(stderr, "hookctl %s: %s\n", name, fmt.Sprintf(format, args...))
	return errUsage
}

// multiFlag collects a repeatable flag.
type multiFlag []string

func (m *multiFlag) String() string     { return fmt.Sprint(*m) }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

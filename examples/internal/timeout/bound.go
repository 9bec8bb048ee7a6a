// Package timeout bounds a Bash command line with coreutils' timeout, for
// the rewrite and policy examples.
package timeout

import (
	"strings"

	"github.com/gohooks/hook/internal/shell"
)

// Prefix is what [Bound] puts in front of a command.
const Prefix = "timeout 600 "

// builtins are shell builtins and keywords that timeout cannot run (or
// whose effect on the shell it would lose).
var builtins = map[string]bool{
	".": true, ":": true, "alias": true, "bg": true, "bind": true, "break": true, "builtin": true, "caller": true,
	"cd": true, "command": true, "compgen": true, "complete": true, "continue": true, "declare": true, "dirs": true,
	"disown": true, "enable": true, "eval": true, "exec": true, "exit": true, "export": true, "fc": true, "fg": true,
	"getopts": true, "hash": true, "help": true, "history": true, "jobs": true, "let": true, "local": true,
	"logout": true, "mapfile": true, "popd": true, "pushd": true, "read": true, "readarray": true, "readonly": true,
	"return": true, "set": true, "shift": true, "shopt": true, "source": true, "suspend": true, "trap": true,
	"type": true, "typeset": true, "ulimit": true, "umask": true, "unalias": true, "unset": true, "wait": true,
	"[[": true, "]]": true, "time": true, "coproc": true,
}

// Bound returns command prefixed with [Prefix], and true, when timeout can
// wrap it without changing what it means: one simple command or one
// pipeline, not already run under timeout, whose program lookPath finds
// (a path, or a name on $PATH; not a builtin, alias or function). The
// prefix goes after any leading VAR=value assignments, which then reach
// the program through timeout's environment. Otherwise it returns command
// unchanged and false.
func Bound(command string, lookPath func(string) (string, error)) (string, bool) {
	s, err := shell.Parse(command, nil)
	if err != nil || s.Compound {
		return command, false
	}
	var top []shell.Command
	for _, c := range s.Commands {
		if !c.Nested {
			top = append(top, c)
		}
	}
	if len(top) == 0 {
		return command, false
	}
	for i, c := range top {
		last := i == len(top)-1
		switch {
		case !last && (c.Op == "|" || c.Op == "|&"):
		case last && (c.Op == "" || c.Op == "\n"):
		default:
			return command, false // a list or a background job
		}
	}
	first := top[0]
	if len(first.Args) == 0 {
		return command, false
	}
	prog := first.Args[0]
	if len(prog.Unknown) > 0 || prog.Glob || prog.Text == "" {
		return command, false // $EDITOR file: not known here
	}
	name := shell.ProgramName(prog)
	if name == "timeout" || builtins[name] {
		return command, false
	}
	if !strings.Contains(prog.Text, "/") {
		if _, err := lookPath(prog.Text); err != nil {
			return command, false // an alias, a function, or not installed
		}
	}
	at := prog.Pos
	return command[:at] + Prefix + command[at:], true
}

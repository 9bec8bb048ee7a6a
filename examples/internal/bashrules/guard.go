// Package bashrules holds the rules of the bashguard example: which Bash
// command lines are destructive accidents, and why.
package bashrules

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path"
	"strings"
	"time"

	"github.com/gohooks/hook/examples/internal/shell"
)

// ProtectedBranches are the branches a force push (or a deletion) must not
// reach.
var ProtectedBranches = []string{"main", "master"}

// Guard judges Bash command lines.
type Guard struct {
	// Home is the user's home folder; empty if unknown.
	Home string
	// ProjectDir is the project root ($CLAUDE_PROJECT_DIR); empty if
	// unknown. The session's working folder is protected as well.
	ProjectDir string
	// Branch returns the git branch checked out in dir. Nil means asking
	// git (git symbolic-ref).
	Branch func(ctx context.Context, dir string) (string, error)
}

// Check returns why command must not run in the folder cwd, in words the
// model can act on, or "" when the guard has no objection. A command line
// it cannot parse (an unterminated quote, say) is refused: a guard that
// cannot read a command does not let it through.
func (g *Guard) Check(ctx context.Context, command, cwd string) (string, error) {
	execs, err := shell.Execs(command, g.lookup(cwd))
	if err != nil {
		return fmt.Sprintf("bashguard could not parse this command (%v), so it refused it. Fix the quoting or split it into simpler commands.", strings.TrimPrefix(err.Error(), "shell: ")), nil
	}
	dir := cleanAbs(cwd)
	for _, e := range execs {
		at := dir
		if e.Dir != "" {
			at = resolve(dir, e.Dir)
		}
		switch e.Name {
		case "cd", "pushd":
			dir = g.cd(dir, e.Args[1:])
		case "rm":
			if why := g.checkRm(e, at, cwd); why != "" {
				return fmt.Sprintf("bashguard blocked `%s`: it would delete %s. Delete only the files or folders you mean, by a path inside the project (for example `rm -rf ./build`); if this really is intended, ask the user to run it themselves.", clip(e.Text()), why), nil
			}
		case "git":
			why, err := g.checkGit(ctx, e, at)
			if err != nil {
				return "", err
			}
			if why != "" {
				return fmt.Sprintf("bashguard blocked `%s`: %s", clip(e.Text()), why), nil
			}
		}
	}
	return "", nil
}

// lookup knows the variables the guard can know: HOME,
// CLAUDE_PROJECT_DIR and PWD.
func (g *Guard) lookup(cwd string) shell.Lookup {
	return func(name string) (string, bool) {
		switch {
		case name == "HOME" && g.Home != "":
			return g.Home, true
		case name == "CLAUDE_PROJECT_DIR" && g.ProjectDir != "":
			return g.ProjectDir, true
		case name == "PWD" && cwd != "":
			return cwd, true
		}
		return "", false
	}
}

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		return s[:197] + "..."
	}
	return s
}

// cleanAbs cleans an absolute path; anything else is an unknown folder
// ("").
func cleanAbs(p string) string {
	if !path.IsAbs(p) {
		return ""
	}
	return path.Clean(p)
}

// resolve returns p made absolute against dir ("" when dir is unknown and
// p is relative).
func resolve(dir, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	if dir == "" {
		return ""
	}
	return path.Join(dir, p)
}

// cd returns the working folder after cd with args in dir.
func (g *Guard) cd(dir string, args []shell.Word) string {
	for _, a := range args {
		switch {
		case a.Text == "--" || strings.HasPrefix(a.Text, "-") && a.Text != "-":
			continue
		case a.Text == "-":
			return "" // the previous folder: not tracked
		case len(a.Unknown) > 0:
			return ""
		}
		return resolve(dir, a.Text)
	}
	return cleanAbs(g.Home)
}

// protectedDir is one folder rm -r must not delete.
type protectedDir struct {
	path string
	what string
}

func (g *Guard) protected(cwd string) []protectedDir {
	out := []protectedDir{{"/", "the root folder /"}}
	if h := cleanAbs(g.Home); h != "" {
		out = append(out, protectedDir{h, "your home folder (" + h + ")"})
	}
	if p := cleanAbs(g.ProjectDir); p != "" {
		out = append(out, protectedDir{p, "the project root (" + p + ")"})
	}
	if c := cleanAbs(cwd); c != "" {
		out = append(out, protectedDir{c, "the session's working folder (" + c + ")"})
	}
	return out
}

// checkRm returns what a recursive rm would wrongly delete, or "".
func (g *Guard) checkRm(e shell.Exec, dir, cwd string) string {
	recursive := false
	var targets []shell.Word
	opts := true
	for _, a := range e.Args[1:] {
		t := a.Text
		switch {
		case opts && t == "--":
			opts = false
		case opts && strings.HasPrefix(t, "--"):
			recursive = recursive || t == "--recursive"
		case opts && strings.HasPrefix(t, "-") && len(t) > 1:
			recursive = recursive || strings.ContainsAny(t[1:], "rR")
		default:
			targets = append(targets, a)
		}
	}
	if !recursive {
		return "" // rm without -r cannot delete a folder
	}
	prot := g.protected(cwd)
	for _, t := range targets {
		if t.Text == "" {
			continue // rm "" deletes nothing
		}
		var why string
		if t.Glob {
			why = globHits(dir, t.Pattern, prot)
		} else {
			why = pathHits(resolve(dir, t.Text), dir, t.Text, prot)
		}
		if why != "" {
			if len(t.Unknown) > 0 {
				why += fmt.Sprintf(" when %s is empty or unset (check it first, or write ${NAME:?})", strings.Join(t.Unknown, " and "))
			}
			return why
		}
	}
	return ""
}

// sweeping reports whether a glob path component matches nearly every
// name, or every hidden name: *, **, ?*, .*, .??*.
func sweeping(comp string) bool {
	all := true
	for _, n := range []string{"x", "src", "README.md"} {
		ok, _ := path.Match(comp, n)
		all = all && ok
	}
	hidden := true
	for _, n := range []string{".git", ".config", ".env"} {
		ok, _ := path.Match(comp, n)
		hidden = hidden && ok
	}
	return all || hidden
}

// pathHits says which protected folder the absolute path p is, or
// contains, or "" for none. raw is the path as written; dir is the
// folder it was resolved in ("" when unknown).
func pathHits(p, dir, raw string, prot []protectedDir) string {
	if p == "" {
		// A relative path in a folder the guard cannot know.
		if base := path.Base(path.Clean(raw)); base == "." || base == ".." {
			return fmt.Sprintf("%q in a folder the guard cannot tell (after a cd it could not follow); use an absolute path", raw)
		}
		return ""
	}
	for _, pd := range prot {
		if p == pd.path {
			return pd.what
		}
	}
	for _, pd := range prot {
		if p != "/" && strings.HasPrefix(pd.path, p+"/") {
			return "a folder (" + p + ") that holds " + pd.what
		}
	}
	if path.Dir(p) == "/" {
		return "the top-level system folder " + p
	}
	return ""
}

// globHits says which protected folder the glob pattern (resolved in dir)
// could delete, or hold, or sweep clean, or "" for none.
func globHits(dir, pattern string, prot []protectedDir) string {
	var full string
	switch {
	case path.IsAbs(pattern):
		full = pattern
	case dir == "":
		last := pattern[strings.LastIndexByte(pattern, '/')+1:]
		if sweeping(last) {
			return fmt.Sprintf("everything matching %q in a folder the guard cannot tell (after a cd it could not follow); use an absolute path", pattern)
		}
		return ""
	default:
		full = dir + "/" + pattern
	}
	full = path.Clean(full)
	pc := components(full)
	for _, pd := range prot {
		dc := components(pd.path)
		// The pattern matches the protected folder or a folder above it.
		if len(pc) <= len(dc) && matchAll(pc, dc[:len(pc)]) {
			if len(pc) == len(dc) {
				return pd.what
			}
			return "a folder that holds " + pd.what
		}
		// The pattern sweeps the protected folder clean.
		if len(pc) == len(dc)+1 && matchAll(pc[:len(dc)], dc) && sweeping(pc[len(dc)]) {
			return "everything in " + pd.what
		}
	}
	if len(pc) == 1 {
		return "top-level system folders matching " + full
	}
	return ""
}

func components(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

func matchAll(patterns, names []string) bool {
	for i := range patterns {
		if ok, _ := path.Match(patterns[i], names[i]); !ok {
			return false
		}
	}
	return true
}

// gitOptsWithValue are git's global options that take the next word as
// their value.
var gitOptsWithValue = map[string]bool{"-C": true, "-c": true, "--git-dir": true, "--work-tree": true, "--namespace": true, "--config-env": true, "--exec-path": true, "--super-prefix": true}

// checkGit returns why a git command must not run, or "".
func (g *Guard) checkGit(ctx context.Context, e shell.Exec, dir string) (string, error) {
	args := e.Args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0].Text, "-") {
		if args[0].Text == "-C" && len(args) > 1 {
			dir = resolve(dir, args[1].Text)
		}
		if gitOptsWithValue[args[0].Text] {
			args = args[min(2, len(args)):]
			continue
		}
		args = args[1:]
	}
	if len(args) == 0 || args[0].Text != "push" {
		return "", nil
	}
	var (
		force, del, all, tags, mirror, dry, endOpts bool
		positional                                  []string
	)
	withValue := map[string]bool{"--repo": true, "--receive-pack": true, "--exec": true, "--push-option": true}
	for i := 1; i < len(args); i++ {
		a := args[i].Text
		switch {
		case endOpts || !strings.HasPrefix(a, "-") || a == "-":
			positional = append(positional, a)
		case a == "--":
			endOpts = true
		case strings.HasPrefix(a, "--"):
			name, _, hasValue := strings.Cut(a, "=")
			switch name {
			case "--force", "--force-with-lease":
				force = true
			case "--delete":
				del = true
			case "--all", "--branches":
				all = true
			case "--tags":
				tags = true
			case "--mirror":
				mirror = true
			case "--dry-run":
				dry = true
			}
			if withValue[name] && !hasValue {
				i++
			}
		default:
			for j := 1; j < len(a); j++ {
				switch a[j] {
				case 'f':
					force = true
				case 'd':
					del = true
				case 'n':
					dry = true
				case 'o':
					if j == len(a)-1 {
						i++
					}
					j = len(a)
				}
			}
		}
	}
	if dry {
		return "", nil
	}
	if mirror {
		return "`git push --mirror` overwrites and deletes every branch on the remote, " + strings.Join(ProtectedBranches, " and ") + " included. Push the branches you mean by name instead, or ask the user.", nil
	}
	var refspecs []string
	if len(positional) > 1 {
		refspecs = positional[1:]
	}
	if len(refspecs) == 0 {
		if all && force {
			return "it force-pushes every branch, " + strings.Join(ProtectedBranches, " and ") + " included. Force-push only your own branch, by name (for example `git push --force origin my-branch`).", nil
		}
		if !force || all || tags {
			return "", nil // --tags alone pushes only tags
		}
		branch, err := g.branch(ctx, dir)
		if err != nil {
			return fmt.Sprintf("it force-pushes the current branch, and bashguard cannot tell which branch that is (%v). Name the branch explicitly, for example `git push --force origin my-branch`.", err), nil
		}
		if isProtected(branch) {
			return forcePushReason(branch), nil
		}
		return "", nil
	}
	for _, rs := range refspecs {
		plus := strings.HasPrefix(rs, "+")
		rs = strings.TrimPrefix(rs, "+")
		src, dst, colon := strings.Cut(rs, ":")
		if !colon {
			dst = src
		}
		dst = strings.TrimPrefix(dst, "refs/heads/")
		if dst == "HEAD" {
			b, err := g.branch(ctx, dir)
			if err != nil {
				if force || plus {
					return fmt.Sprintf("it force-pushes HEAD, and bashguard cannot tell which branch that is (%v). Name the branch explicitly, for example `git push --force origin HEAD:my-branch`.", err), nil
				}
				continue
			}
			dst = b
		}
		if !isProtected(dst) {
			continue
		}
		switch {
		case del || colon && src == "":
			return fmt.Sprintf("it deletes the protected branch %s on the remote. Delete only your own branches; ask the user if %s really has to go.", dst, dst), nil
		case force || plus:
			return forcePushReason(dst), nil
		}
	}
	return "", nil
}

func forcePushReason(branch string) string {
	return fmt.Sprintf("a force push to %s rewrites the shared history of a protected branch and can destroy other people's commits. Push your work to a new branch (for example `git push origin HEAD:my-fix`) and open a pull request, or integrate with `git pull --rebase` and push without force; ask the user if a force push to %s is really wanted.", branch, branch)
}

func isProtected(branch string) bool {
	for _, b := range ProtectedBranches {
		if branch == b {
			return true
		}
	}
	return false
}

func (g *Guard) branch(ctx context.Context, dir string) (string, error) {
	if dir == "" {
		return "", errors.New("the working folder is not known")
	}
	if g.Branch != nil {
		return g.Branch(ctx, dir)
	}
	return gitBranch(ctx, dir)
}

// gitBranch asks git for the branch checked out in dir.
func gitBranch(ctx context.Context, dir string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "git", "-C", dir, "symbolic-ref", "--short", "-q", "HEAD").Output()
	if err != nil {
		return "", errors.New("git symbolic-ref found no branch: not a repository, or a detached HEAD")
	}
	return strings.TrimSpace(string(out)), nil
}

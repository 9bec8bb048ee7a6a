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

	"github.com/gohooks/hook/examples/internal/winpath"
	"github.com/gohooks/hook/internal/shell"
)

// ProtectedBranches are the branches a force push (or a deletion) must not
// reach.
var ProtectedBranches = []string{"main", "master"}

// Guard judges Bash command lines.
type Guard struct {
	// Home is the user's home folder; empty if unknown.
	Home string
	// UserProfile is the Windows profile folder (%USERPROFILE%, which Git
	// Bash passes on as $USERPROFILE), protected like Home; empty if
	// unknown or not on Windows.
	UserProfile string
	// ProjectDir is the project root ($CLAUDE_PROJECT_DIR); empty if
	// unknown. The session's working folder is protected as well.
	ProjectDir string
	// Branch returns the git branch checked out in dir. Nil means asking
	// git (git symbolic-ref).
	Branch func(ctx context.Context, dir string) (string, error)
	// Windows reads paths the Windows way (see [Guard.Check]) even when
	// none of the folders above is written the Windows way.
	Windows bool
	// User is the user's login name ($USER); ~User is Home. Empty means
	// the last element of Home.
	User string

	paths paths // how Check reads paths, set for each call
}

// Check returns why command must not run in the folder cwd, in words the
// model can act on, or "" when the guard has no objection. A command line
// it cannot parse (an unterminated quote, say) is refused: a guard that
// cannot read a command does not let it through.
//
// Paths are read the Windows way when cwd, Home, UserProfile or ProjectDir
// is written the Windows way (C:\Users\dev, \\server\share), as Claude
// Code sends them from Windows, or when Windows is set: the command runs
// in Git Bash there, so C:\x, C:/x, /c/x and /cygdrive/c/x name the same
// folder, \\?\ and UNC prefixes are understood, names compare without
// case and without trailing dots and spaces, and a drive's root folder is
// protected like /. The reading depends on the paths, not on the machine
// the guard runs on.
func (g *Guard) Check(ctx context.Context, command, cwd string) (string, error) {
	c := *g
	c.paths = paths{windows: g.Windows || winpath.IsWindows(cwd) || winpath.IsWindows(g.Home) || winpath.IsWindows(g.UserProfile) || winpath.IsWindows(g.ProjectDir)}
	return c.check(ctx, command, cwd)
}

func (g *Guard) check(ctx context.Context, command, cwd string) (string, error) {
	execs, err := shell.Execs(command, g.lookup(cwd))
	if err != nil {
		return fmt.Sprintf("bashguard could not parse this command (%v), so it refused it. Fix the quoting or split it into simpler commands.", strings.TrimPrefix(err.Error(), "shell: ")), nil
	}
	cleanAbs, resolve := g.paths.cleanAbs, g.paths.resolve
	dir := cleanAbs(cwd)
	for _, e := range execs {
		at := dir
		if e.Dir != "" {
			at = resolve(dir, e.Dir)
		}
		if e.Unread != "" {
			return fmt.Sprintf("bashguard blocked `%s`: it runs a script bashguard cannot read (%s), so it cannot tell what the script deletes. Run the script's commands themselves, written out, so that they can be checked.", clip(e.Text()), e.Unread), nil
		}
		prog := e.Args[0]
		switch {
		case e.Name == "cd" || e.Name == "pushd":
			dir = g.cd(dir, e.Args[1:])
		case e.Name == "rm":
			if why := g.checkRm(e, at, cwd); why != "" {
				return rmReason(e, why), nil
			}
		case e.Name == "find":
			if why := g.checkFindDelete(e, at, cwd); why != "" {
				return rmReason(e, why), nil
			}
		case len(prog.Opaque) > 0 || prog.Text == "" && len(prog.Unknown) > 0:
			// A program the guard cannot name: judged as if it were rm.
			if why := g.checkRm(e, at, cwd); why != "" {
				return fmt.Sprintf("bashguard blocked `%s`: it cannot tell which program %s runs, and if it is rm it would delete %s. Name the program, and delete only the files or folders you mean, by a path inside the project.", clip(e.Text()), strings.Join(prog.Unknown, " "), why), nil
			}
		case e.Name == "git":
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

// rmReason is the reason for a deletion the guard refuses.
func rmReason(e shell.Exec, why string) string {
	return fmt.Sprintf("bashguard blocked `%s`: it would delete %s. Delete only the files or folders you mean, by a path inside the project (for example `rm -rf ./build`); if this really is intended, ask the user to run it themselves.", clip(e.Text()), why)
}

// lookup knows the variables the guard can know: HOME, USERPROFILE,
// CLAUDE_PROJECT_DIR and PWD, and the user's own ~name.
func (g *Guard) lookup(cwd string) shell.Lookup {
	user := g.User
	if user == "" && g.Home != "" {
		user = path.Base(strings.ReplaceAll(strings.TrimRight(g.Home, `/\`), `\`, "/"))
	}
	return func(name string) (string, bool) {
		switch {
		case name == "~"+user && user != "" && g.Home != "":
			return g.Home, true
		case name == "HOME" && g.Home != "":
			return g.Home, true
		case name == "USERPROFILE" && g.UserProfile != "":
			return g.UserProfile, true
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

// paths reads paths the POSIX way or, with windows set, the Windows way.
// The guard works on one form, a clean, absolute, slash-separated path;
// the Windows way maps every spelling of a folder to one such form: C:\x,
// C:/x, /c/x, /cygdrive/c/x and \\?\C:\x all become /c/x (Git Bash's
// spelling, lower-cased), \\server\share\x becomes /unc/server/share/x.
type paths struct {
	windows bool
}

// form returns p in the guard's form (relative paths stay relative).
func (ps paths) form(p string) string {
	if !ps.windows {
		return p
	}
	p = winpath.Clean(p)
	switch {
	case len(p) >= 2 && p[1] == ':':
		if len(p) > 2 && p[2] != '/' {
			return p[2:] // drive-relative (C:x): taken as relative to the working folder
		}
		return "/" + p[:1] + p[2:]
	case strings.HasPrefix(p, "//"):
		return "/unc" + p[1:]
	case strings.HasPrefix(p, "/cygdrive/") && len(p) > 10 && (len(p) == 11 || p[11] == '/'):
		return p[9:]
	}
	return p
}

// display returns a folder in the guard's form as the user writes it:
// C:\x for /c/x on Windows.
func (ps paths) display(p string) string {
	if !ps.windows {
		return p
	}
	if len(p) >= 2 && p[0] == '/' && (len(p) == 2 || p[2] == '/') && 'a' <= p[1] && p[1] <= 'z' {
		rest := p[2:]
		if rest == "" {
			rest = "/"
		}
		return strings.ToUpper(p[1:2]) + ":" + strings.ReplaceAll(rest, "/", `\`)
	}
	if rest, ok := strings.CutPrefix(p, "/unc/"); ok {
		return `\\` + strings.ReplaceAll(rest, "/", `\`)
	}
	return p
}

// driveRoot reports whether p, in the guard's form, is a drive's root
// folder (/c).
func (ps paths) driveRoot(p string) bool {
	return ps.windows && len(p) == 2 && p[0] == '/' && 'a' <= p[1] && p[1] <= 'z'
}

// cleanAbs cleans an absolute path; anything else is an unknown folder
// ("").
func (ps paths) cleanAbs(p string) string {
	p = ps.form(p)
	if !path.IsAbs(p) {
		return ""
	}
	return path.Clean(p)
}

// resolve returns p made absolute against dir ("" when dir is unknown and
// p is relative).
func (ps paths) resolve(dir, p string) string {
	p = ps.form(p)
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
		return g.paths.resolve(dir, a.Text)
	}
	return g.paths.cleanAbs(g.Home)
}

// protectedDir is one folder rm -r must not delete.
type protectedDir struct {
	path string
	what string
}

func (g *Guard) protected(cwd string) []protectedDir {
	ps := g.paths
	out := []protectedDir{{"/", "the root folder /"}}
	if h := ps.cleanAbs(g.Home); h != "" {
		out = append(out, protectedDir{h, "your home folder (" + ps.display(h) + ")"})
	}
	if u := ps.cleanAbs(g.UserProfile); u != "" {
		out = append(out, protectedDir{u, "your profile folder (" + ps.display(u) + ")"})
	}
	if p := ps.cleanAbs(g.ProjectDir); p != "" {
		out = append(out, protectedDir{p, "the project root (" + ps.display(p) + ")"})
	}
	if c := ps.cleanAbs(cwd); c != "" {
		out = append(out, protectedDir{c, "the session's working folder (" + ps.display(c) + ")"})
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
		if len(t.Opaque) > 0 {
			return fmt.Sprintf("a path bashguard cannot work out: it comes from %s", strings.Join(t.Opaque, " and "))
		}
		if e.Placeholder != "" && strings.Contains(t.Text, e.Placeholder) {
			if t.Text != e.Placeholder {
				return fmt.Sprintf("paths made from each name %s supplies (%q), which bashguard cannot work out", feedName(e), t.Text)
			}
			if why := g.fedHits(e, dir, prot); why != "" {
				return why
			}
			continue
		}
		if t.Text == "" {
			continue // rm "" deletes nothing
		}
		var why string
		if t.Glob {
			why = g.paths.globHits(dir, t.Pattern, prot)
		} else {
			why = g.paths.pathHits(g.paths.resolve(dir, t.Text), dir, t.Text, prot)
		}
		if why != "" {
			if len(t.Unknown) > 0 {
				why += fmt.Sprintf(" when %s is empty or unset (check it first, or write ${NAME:?})", strings.Join(t.Unknown, " and "))
			}
			return why
		}
	}
	if e.Xargs && e.Placeholder == "" {
		return g.fedHits(e, dir, prot)
	}
	return ""
}

// feedName says where the names a program is fed come from.
func feedName(e shell.Exec) string {
	switch {
	case e.Feed == nil && e.Xargs:
		return "xargs reads from a file or the terminal"
	case e.Feed == nil:
		return "its input"
	case e.Xargs:
		return "`" + clip(e.Feed.Text()) + "` prints"
	}
	return "`" + clip(e.Feed.Text()) + "` finds"
}

// fedHits says which protected folder the names fed to e (by xargs or
// find -exec) could be, or "" when none can.
func (g *Guard) fedHits(e shell.Exec, dir string, prot []protectedDir) string {
	feed := e.Feed
	if feed == nil {
		return "the paths " + feedName(e) + ", which bashguard cannot see"
	}
	fdir := dir
	if feed.Dir != "" {
		fdir = g.paths.resolve(dir, feed.Dir)
	}
	switch feed.Name {
	case "find":
		return g.findHits(*feed, fdir, prot)
	case "echo", "printf":
		if text, ok := printedText(feed.Args); ok {
			for _, name := range strings.Fields(text) {
				if why := g.paths.pathHits(g.paths.resolve(dir, name), dir, name, prot); why != "" {
					return why
				}
			}
			return ""
		}
	}
	return "the paths " + feedName(e) + ", which bashguard cannot tell"
}

// printedText returns what echo or printf prints, when every word is
// known.
func printedText(args []shell.Word) (string, bool) {
	texts := make([]string, 0, len(args))
	for _, a := range args {
		if len(a.Unknown) > 0 || a.Glob {
			return "", false
		}
		texts = append(texts, a.Text)
	}
	switch {
	case texts[0] == "echo" && (len(texts) == 1 || !strings.HasPrefix(texts[1], "-")):
		return strings.Join(texts[1:], " "), true
	case texts[0] == "printf" && len(texts) == 2 && !strings.ContainsAny(texts[1], `%\`):
		return texts[1], true
	case texts[0] == "printf" && len(texts) >= 3 && (texts[1] == "%s" || texts[1] == `%s\n`):
		return strings.Join(texts[2:], " "), true
	}
	return "", false
}

// checkFindDelete returns what find -delete would wrongly delete, or "".
func (g *Guard) checkFindDelete(e shell.Exec, dir, cwd string) string {
	for _, a := range e.Args[1:] {
		if a.Text == "-delete" {
			return g.findHits(e, dir, g.protected(cwd))
		}
	}
	return ""
}

// topLevelNames are names a top-level folder of a system often has.
var topLevelNames = []string{"bin", "boot", "dev", "etc", "home", "lib", "lib64", "mnt", "opt", "proc", "root", "run", "sbin", "srv", "sys", "tmp", "usr", "var", "Applications", "Library", "System", "Users", "Volumes", "private", "Windows", "Program Files", "ProgramData"}

// findHits says which protected folder a find could name, or sweep
// clean, or "" when it cannot: a find names its start folders and
// everything below them, or, with -name or -iname tests (and no -o, !
// or ,), only those whose name matches.
func (g *Guard) findHits(find shell.Exec, dir string, prot []protectedDir) string {
	args := find.Args[1:]
	for len(args) > 0 && (args[0].Text == "-H" || args[0].Text == "-L" || args[0].Text == "-P" || strings.HasPrefix(args[0].Text, "-O")) {
		args = args[1:]
	}
	var starts []shell.Word
	for len(args) > 0 && !strings.HasPrefix(args[0].Text, "-") && args[0].Text != "(" && args[0].Text != "!" {
		starts = append(starts, args[0])
		args = args[1:]
	}
	if len(starts) == 0 {
		starts = []shell.Word{{Text: ".", Raw: "."}}
	}
	var names []string
	filtered := true
	for i := 0; i < len(args); i++ {
		switch t := args[i].Text; t {
		case "-o", "-or", "!", "-not", ",":
			filtered = false
		case "-name", "-iname":
			if i+1 < len(args) {
				i++
				if len(args[i].Unknown) > 0 {
					filtered = false
				}
				n := args[i].Text
				if t == "-iname" {
					n = strings.ToLower(n)
				}
				names = append(names, n)
			}
		}
	}
	if filtered {
		for _, a := range args {
			if a.Text == "-empty" {
				// Only empty files and folders, and no -o: none of
				// them holds anything.
				return ""
			}
		}
	}
	filtered = filtered && len(names) > 0
	// matches reports whether a folder named base passes the -name tests.
	matches := func(base string) bool {
		if !filtered {
			return true
		}
		for _, n := range names {
			ok1, _ := path.Match(n, base)
			ok2, _ := path.Match(n, strings.ToLower(base))
			if !ok1 && !ok2 {
				return false
			}
		}
		return true
	}
	sweeps := !filtered
	for _, n := range names {
		sweeps = sweeps || sweeping(n)
	}
	what := "`" + clip(find.Text()) + "`"
	for _, s := range starts {
		if len(s.Unknown) > 0 || s.Glob {
			return fmt.Sprintf("whatever %s finds under %s, a folder bashguard cannot work out", what, s.Raw)
		}
		abs := g.paths.resolve(dir, s.Text)
		if abs == "" {
			return fmt.Sprintf("whatever %s finds in a folder bashguard cannot tell (after a cd it could not follow)", what)
		}
		// The start folder itself.
		if matches(path.Base(s.Text)) || matches(path.Base(abs)) {
			if why := g.paths.pathHits(abs, dir, s.Text, prot); why != "" {
				return why + ", which " + what + " finds"
			}
		}
		for _, pd := range prot {
			// A protected folder below the start, or everything in one.
			below := abs == "/" && pd.path != "/" || strings.HasPrefix(pd.path, abs+"/")
			if below && matches(path.Base(pd.path)) {
				return pd.what + ", which " + what + " finds"
			}
			if (below || pd.path == abs) && sweeps {
				return "everything in " + pd.what + ", which " + what + " finds"
			}
		}
		if abs == "/" || g.paths.driveRoot(abs) {
			for _, n := range topLevelNames {
				if matches(n) {
					return "top-level system folders, which " + what + " finds"
				}
			}
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
func (ps paths) pathHits(p, dir, raw string, prot []protectedDir) string {
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
	if ps.driveRoot(p) {
		return "the root folder " + ps.display(p) + " of a drive"
	}
	for _, pd := range prot {
		if p != "/" && strings.HasPrefix(pd.path, p+"/") {
			return "a folder (" + ps.display(p) + ") that holds " + pd.what
		}
	}
	if path.Dir(p) == "/" || ps.driveRoot(path.Dir(p)) {
		return "the top-level system folder " + ps.display(p)
	}
	return ""
}

// globHits says which protected folder the glob pattern (resolved in dir)
// could delete, or hold, or sweep clean, or "" for none.
func (ps paths) globHits(dir, pattern string, prot []protectedDir) string {
	if ps.windows {
		pattern = ps.globForm(pattern)
	}
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
	if len(pc) == 1 || len(pc) == 2 && ps.driveRoot("/"+pc[0]) {
		return "top-level system folders matching " + ps.display(full)
	}
	return ""
}

// globForm returns a glob pattern in the guard's Windows form: a literal
// backslash (escaped as \\ in the pattern) is a separator, names compare
// without case, and a drive or UNC prefix becomes /c or /unc.
func (ps paths) globForm(pattern string) string {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		if pattern[i] == '\\' && i+1 < len(pattern) {
			if pattern[i+1] == '\\' {
				b.WriteByte('/')
			} else {
				b.WriteString(pattern[i : i+2])
			}
			i++
			continue
		}
		b.WriteByte(pattern[i])
	}
	pattern = strings.ToLower(b.String())
	switch {
	case len(pattern) >= 2 && pattern[1] == ':' && 'a' <= pattern[0] && pattern[0] <= 'z':
		if len(pattern) == 2 || pattern[2] == '/' {
			return "/" + pattern[:1] + pattern[2:]
		}
		return pattern[2:]
	case strings.HasPrefix(pattern, "//"):
		return "/unc" + pattern[1:]
	case strings.HasPrefix(pattern, "/cygdrive/"):
		return pattern[9:]
	}
	return pattern
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
			dir = g.paths.resolve(dir, args[1].Text)
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
		opaque                                      []string
	)
	withValue := map[string]bool{"--repo": true, "--receive-pack": true, "--exec": true, "--push-option": true}
	for i := 1; i < len(args); i++ {
		a := args[i].Text
		switch {
		case endOpts || !strings.HasPrefix(a, "-") || a == "-":
			positional = append(positional, a)
			if len(positional) > 1 {
				opaque = append(opaque, args[i].Opaque...)
			}
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
	if len(opaque) > 0 && (force || del || strings.Contains(strings.Join(positional[1:], " "), "+") || strings.Contains(strings.Join(positional[1:], " "), ":")) {
		return fmt.Sprintf("it force-pushes or deletes a branch bashguard cannot work out (%s), which may be %s. Name the branch explicitly, for example `git push --force origin my-branch`.", strings.Join(opaque, " and "), strings.Join(ProtectedBranches, " or ")), nil
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
	dir = g.paths.display(dir) // C:\x, not /c/x, for a Windows git
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

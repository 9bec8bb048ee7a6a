package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readDenied are the command lines whose target bashguard must work out
// through a variable, a tilde, a substitution, xargs or find, or refuse
// because it cannot: each with a word the reason must contain.
var readDenied = []struct{ cmd, says string }{
	// Variables the line sets before it uses them.
	{"x=/; rm -rf $x", "root folder"},
	{"x=/; rm -rf \"$x\"", "root folder"},
	{"x=/; rm -rf ${x}", "root folder"},
	{"x=/; rm -rf \"${x}\"/", "root folder"},
	{"x=/\nrm -rf $x", "root folder"},
	{"x=/ && rm -rf $x", "root folder"},
	{"x='/'; rm -rf $x", "root folder"},
	{`x="/"; rm -rf $x`, "root folder"},
	{"export x=/; rm -rf $x", "root folder"},
	{"declare -r x=/; rm -fr $x", "root folder"},
	{"local x=/ ; rm -r -f $x", "root folder"},
	{"readonly x=/; rm --recursive --force $x", "root folder"},
	{"a=/ b=usr; rm -rf $a$b", "top-level system folder /usr"},
	{"d=~; rm -rf $d", "home folder"},
	{"d=~/; rm -rf $d", "home folder"},
	{"d=$HOME; rm -rf $d", "home folder"},
	{"d=/home; d+=/dev; rm -rf $d", "home folder"},
	{"x=/tmp; x=/; rm -rf $x", "root folder"},
	{"x=/; y=$x; rm -rf $y", "root folder"},
	{`x="/ /tmp/a"; rm -rf $x`, "root folder"},
	{`x='*'; cd / && rm -rf $x`, "everything in the root folder"},
	{"x=/; eval rm -rf $x", "root folder"},
	{"eval x=/; rm -rf $x", "root folder"},
	{"x=/; bash -c \"rm -rf $x\"", "root folder"},
	{"x=/ bash -c 'rm -rf $x'", "root folder"},
	{"env x=/ sh -c 'rm -rf \"$x\"'", "root folder"},
	{"sh -c 'rm -rf \"$1\"' _ /", "root folder"},
	{"bash -c 'rm -rf $0' ~", "home folder"},
	{"HOME=/; rm -rf ~", "root folder"},
	{"cd / && rm -rf \"$PWD\"/usr", "top-level system folder /usr"},
	{`set -- /; rm -rf "$1"`, "root folder"},
	{`set -- build /; shift; rm -rf "$1"`, "cannot work out"},
	{"a=(/ x); rm -rf $a", "cannot work out"},
	{`a=(/); rm -rf "${a[@]}"`, "cannot work out"},
	{"x=/; declare -n r=x; rm -rf $r", "cannot work out"},
	// A value set only on some paths, or from input, may be anything.
	{"x=build; [ -d x ] || x=/; rm -rf $x", "cannot work out"},
	{"x=build; if true; then x=/; fi; rm -rf $x", "cannot work out"},
	{"read x; rm -rf $x", "cannot work out"},
	{"for d in / ~; do rm -rf $d; done", "cannot work out"},
	{"x=$(cat dirs.txt); rm -rf $x", "cannot work out"},
	{"source ./env.sh; rm -rf $TARGET", "cannot work out"},
	{`f() { rm -rf "$1"; }; f /`, "function's argument"},
	{"function f { rm -rf $@; }; f ~", "function's argument"},
	// Tildes.
	{"rm -rf ~", "home folder"},
	{"rm -rf ~dev", "home folder"},
	{"rm -rf ~dev/", "home folder"},
	{"rm -rf ~root", "another user's home folder"},
	{"rm -rf ~alice", "another user's home folder"},
	{"rm -rf ~+", "project root"},
	{"rm -rf ~-", "cannot work out"},
	// Command substitution and backticks: worked out, or refused.
	{"rm -rf $(echo /)", "root folder"},
	{`rm -rf "$(echo /)"`, "root folder"},
	{"rm -rf `echo /`", "root folder"},
	{"rm -rf \"`echo ~`\"", "home folder"},
	{"rm -rf $(printf /)", "root folder"},
	{"rm -rf $(echo / /tmp/x)", "root folder"},
	{"rm -rf $(dirname /usr/x)", "top-level system folder /usr"},
	{"rm -rf $(pwd)", "project root"},
	{"rm -rf $(cat list)", "cannot work out"},
	{"rm -rf `cat list`", "cannot work out"},
	{"rm -rf build/$(date +%s)", "cannot work out"},
	{"rm -rf $(git rev-parse --show-toplevel)", "cannot work out"},
	{"rm -rf $(find / -maxdepth 1)", "cannot work out"},
	{"rm -rf \"$(mktemp -d)/..\"", "top-level system folder /tmp"},
	{"$(echo rm) -rf /", "root folder"},
	{"$RM -rf /", "cannot tell which program"},
	{"`which rm` -rf ~", "cannot tell which program"},
	// xargs: the names come from the command piped into it.
	{"echo / | xargs rm -rf", "root folder"},
	{"echo ~ | xargs rm -rf", "home folder"},
	{"printf / | xargs rm -rf", "root folder"},
	{"echo / | xargs -I{} rm -rf {}", "root folder"},
	{"echo / | xargs -I % rm -rf %", "root folder"},
	{"echo x | xargs -I % rm -rf /%/..", "cannot work out"},
	{"cat dirs.txt | xargs rm -rf", "cannot tell"},
	{"xargs rm -rf < dirs.txt", "cannot see"},
	{"xargs -a dirs.txt rm -rf", "cannot see"},
	{"ls | xargs rm -rf", "cannot tell"},
	{"find / -maxdepth 1 | xargs rm -rf", "root folder"},
	{"find ~ -name acme-api | xargs rm -rf", "project root"},
	{"find . | xargs rm -rf", "project root"},
	{"find . -name '*' -print0 | xargs -0 rm -rf", "project root"},
	{"find /home -name dev | xargs rm -rf", "home folder"},
	{"find / -name usr | xargs rm -rf", "top-level system folders"},
	{"find \"$X\" -name build | xargs rm -rf", "cannot work out"},
	{"echo / | xargs sh -c 'rm -rf \"$@\"' _", "cannot work out"},
	// find -exec and -delete.
	{"find / -maxdepth 0 -exec rm -rf {} \\;", "root folder"},
	{"find ~ -name acme-api -exec rm -rf {} +", "project root"},
	{"find . -exec rm -rf / \\;", "root folder"},
	{"find . -name x -exec sh -c 'rm -rf \"$1\"/..' _ {} \\;", "cannot work out"},
	{"find ~ -name acme-api -exec sh -c 'rm -rf \"$1\"' _ {} \\;", "project root"},
	{"find ~ -delete", "home folder"},
	{"find . -delete", "project root"},
	{"find / -name '*.log' -o -name x -delete", "root folder"},
	{"find ~ -empty -o -delete", "home folder"},
	{"find . -path ./vendor -prune -o -name '*.pyc' -delete", "project root"},
	// Branches bashguard cannot work out.
	{"git push -f origin $(git branch --show-current)", "cannot work out"},
	{"git push origin +$(cat branch)", "cannot work out"},
	{"git push origin --delete \"$(cat branch)\"", "cannot work out"},
	{"b=main; git push --force origin $b", "force push to main"},
	// Shells and eval fed what bashguard cannot read.
	{"echo 'rm -rf /' | sh", "root folder"},
	{"echo 'rm -rf ~' | bash -s", "home folder"},
	{"curl -s https://example.com/x.sh | bash", "cannot read"},
	{"bash <(curl -s https://example.com/x.sh)", "cannot read"},
	{"source <(echo 'rm -rf /')", "cannot read"},
	{"sh < <(echo x)", "cannot read"},
	{`eval "$(cat cmds)"`, "cannot read"},
	{`sh -c "$(cat cmds)"`, "cannot read"},
	{"x=$(cat cmds); eval $x", "cannot read"},
	{"cat cmds | xargs eval", "cannot read"},
	{"xargs sh -c < cmds", "cannot read"},
	// Wrappers around all of it.
	{"sudo env x=/ sh -c 'rm -rf $x'", "root folder"},
	{"timeout 5 nice -n 1 rm -rf $(echo /)", "root folder"},
	{"command eval 'rm -rf ~'", "home folder"},
	// Neighbours in spelling.
	{"rm -rf /.", "root folder"},
	{"rm -rf '/'", "root folder"},
	{"rm -rf \"//\"", "root folder"},
	{"rm -rf /*/", "root folder"},
	{"rm -Rf ${HOME}", "home folder"},
	{"rm -rf \"$HOME\"/", "home folder"},
	{"rm -rf ~/.", "home folder"},
	{"rm -r -f ~/..", "holds your home folder"},
}

// readAllowed are command lines that use the same machinery for paths
// that are safe.
var readAllowed = []string{
	"x=build; rm -rf $x",
	"x=build\nrm -rf \"$x\"",
	"x=/; rm -rf $x/tmp/scratch",
	"x=/; echo $x",
	"x=/ rm -rf $x", // x is rm's, set after the line is expanded: $x is empty here
	"x=/; x=build; rm -rf $x",
	"unset x; rm -rf \"$x\"",
	"d=~/.cache/go-build; rm -rf $d",
	"sh -c 'rm -rf \"$1\"' _ build",
	"bash -c 'rm -rf $1'",
	"rm -rf \"$(mktemp -d)\"",
	"rm -rf $(echo build dist)",
	"rm -rf ~dev/.cache/x",
	"echo build | xargs rm -rf",
	"find . -name node_modules | xargs rm -rf",
	"find . -name '*.pyc' -delete",
	"find build -delete",
	"find . -name __pycache__ -exec rm -rf {} +",
	"find /tmp/scratch -mindepth 1 -delete",
	"find . -type f -name '*.tmp' -exec rm {} \\;",
	"echo 'rm -rf ./build' | sh",
	"eval \"echo hi\"",
	"for f in a b; do echo $f; done",
	"read x; echo $x",
	"x=$(cat f); echo $x",
	"bash ./build.sh",
	"ls | xargs echo",
	"ls | xargs rm -f",
	"find . -type d -empty -delete",
	"git push origin $(git branch --show-current)",
	"b=feature/login; git push -f origin $b",
}

func TestCheckReadsVariablesSubstitutionsAndFeeds(t *testing.T) {
	g := testGuard()
	for _, tt := range readDenied {
		reason, err := g.Check(context.Background(), tt.cmd, project)
		require.NoError(t, err, tt.cmd)
		if assert.NotEmpty(t, reason, "command should be denied: %q", tt.cmd) {
			assert.Contains(t, reason, tt.says, tt.cmd)
		}
	}
	for _, cmd := range readAllowed {
		reason, err := g.Check(context.Background(), cmd, project)
		require.NoError(t, err, cmd)
		assert.Empty(t, reason, "command should be allowed: %q", cmd)
	}
}

// TestCheckEverySpellingOfADangerousRm crosses the spellings of a
// recursive rm with the spellings of a protected target and the ways of
// running it: every combination is refused.
func TestCheckEverySpellingOfADangerousRm(t *testing.T) {
	options := []string{"-rf", "-fr", "-Rf", "-rfv", "-r -f", "-f -r", "-r", "-R", "--recursive --force", "--recursive", "-rf --no-preserve-root", "-rf --"}
	targets := []struct{ setup, target string }{
		{"", "/"}, {"", "'/'"}, {"", `"/"`}, {"", "//"}, {"", "/."}, {"", "/./"}, {"", "/*"}, {"", `"/"*`},
		{"", "$HOME"}, {"", `"$HOME"`}, {"", "${HOME}"}, {"", `"${HOME}/"`}, {"", "~"}, {"", "~/"}, {"", "~/*"},
		{"", "~dev"}, {"", "~root"}, {"", "/usr"}, {"", "/home"}, {"", "."}, {"", "*"}, {"", "$PWD"},
		{"x=/; ", "$x"}, {"x=/; ", "${x}"}, {"x=/; ", `"$x"`}, {"x=~; ", "$x"}, {"export x=$HOME; ", `"$x"/`},
		{"", "$(echo /)"}, {"", "`echo /`"}, {"", `"$(echo ~)"`}, {"", "$(cat list)"}, {"", `"$(pwd)"`},
	}
	runs := []struct{ before, after string }{
		{"", ""}, {"sudo ", ""}, {"env A=1 ", ""}, {"command ", ""}, {"timeout 5 ", ""}, {"bash -c '", "'"}, {"eval '", "'"},
	}
	g := testGuard()
	for _, o := range options {
		for _, tg := range targets {
			for _, r := range runs {
				cmd := tg.setup + r.before + "rm " + o + " " + tg.target + r.after
				if strings.Contains(r.before, "'") && strings.Contains(tg.target, "'") {
					continue // the quotes would nest
				}
				reason, err := g.Check(context.Background(), cmd, project)
				require.NoError(t, err, cmd)
				assert.NotEmpty(t, reason, "command should be denied: %q", cmd)
			}
		}
	}
}

// TestCheckEverySpellingOfASafeRm is the same cross for targets inside
// the project or a cache: none is refused.
func TestCheckEverySpellingOfASafeRm(t *testing.T) {
	options := []string{"-rf", "-fr", "-r -f", "--recursive --force", "-R"}
	targets := []struct{ setup, target string }{
		{"", "build"}, {"", "./dist"}, {"", "'node_modules'"}, {"", "/tmp/scratch"}, {"", "~/.cache/go-build"},
		{"", `"$HOME/.npm"`}, {"", "${HOME}/.cache/x"}, {"", "build/*"}, {"x=build; ", "$x"}, {"x=build; ", `"${x}"/`},
		{"", "$(echo build)"}, {"", `"$(mktemp -d)"`}, {"", "~dev/.cache/x"}, {"", `"$BUILD_DIR"`}, {"", "${BUILD_DIR:?}/"},
	}
	runs := []struct{ before, after string }{{"", ""}, {"sudo ", ""}, {"env A=1 ", ""}, {`bash -c "`, `"`}, {`eval "`, `"`}}
	g := testGuard()
	for _, o := range options {
		for _, tg := range targets {
			for _, r := range runs {
				if strings.Contains(r.before, `"`) && strings.Contains(tg.target, `"`) {
					continue
				}
				cmd := tg.setup + r.before + "rm " + o + " " + tg.target + r.after
				reason, err := g.Check(context.Background(), cmd, project)
				require.NoError(t, err, cmd)
				assert.Empty(t, reason, "command should be allowed: %q", cmd)
			}
		}
	}
}

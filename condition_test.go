package hook

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// toolEvent builds a PreToolUse event (or another tool event) in /proj.
func toolEvent(t *testing.T, event, tool, input string) *Event {
	t.Helper()
	return eventFromBytes(t, []byte(fmt.Sprintf(`{"session_id":"s","transcript_path":"t","cwd":"/proj","hook_event_name":%q,"tool_name":%q,"tool_input":%s,"tool_use_id":"toolu_1"}`, event, tool, input)))
}

func TestCondition(t *testing.T) {
	bash := func(cmd string) string { return fmt.Sprintf(`{"command":%q}`, cmd) }
	file := func(p string) string { return fmt.Sprintf(`{"file_path":%q,"content":"x"}`, p) }
	for _, c := range []struct {
		cond, tool, input string
		want              bool
	}{
		{"Bash", "Bash", bash("ls"), true},
		{"Bash", "Read", file("/proj/a"), false},
		{"Bash()", "Bash", bash("ls"), true},
		{"Bash(*)", "Bash", bash("ls"), true},
		{"Task", "Agent", `{"prompt":"p","description":"d"}`, true},
		{"Agent", "Agent", `{"prompt":"p","description":"d"}`, true},
		{"mcp__mem__store", "mcp__mem__store", `{}`, true},
		{"Bash(git *)", "Bash", bash("git status"), true},
		{"Bash(git *)", "Bash", bash("git"), true},
		{"Bash(git *)", "Bash", bash("gitk"), false},
		{"Bash(git *)", "Bash", bash("ls && git push"), true},
		{"Bash(git *)", "Bash", bash("ls; echo git"), false},
		{"Bash(git *)", "Bash", bash("FOO=1 git  log"), true},
		{"Bash(git *)", "Bash", bash("cat x | xargs git add"), true},
		{"Bash(git commit *)", "Bash", bash(`git commit -m "a  b"`), true},
		{"Bash(git commit *)", "Bash", bash("git commit"), true},
		{"Bash(git commit *)", "Bash", bash("git push"), false},
		{"Bash(npm run test:*)", "Bash", bash("npm run test --watch"), true},
		{"Bash(npm run test:*)", "Bash", bash("npm run test"), true},
		{"Bash(npm run test:*)", "Bash", bash("npm run testing"), false},
		{"Bash(rm -rf *)", "Bash", bash("echo hi > out.txt && rm -rf /tmp/x 2>/dev/null"), true},
		{"Bash(echo hi)", "Bash", bash("echo hi > out.txt"), true},
		{"Bash(ls)", "Bash", bash("ls"), true},
		{"Bash(ls)", "Bash", bash("ls -l"), false},
		{"Bash(ls)", "Bash", bash("echo $(rm -rf /)"), true}, // not split: runs, as in the client
		{"Bash(*push*)", "Bash", bash("git push origin"), true},
		{`Bash(echo \(x\))`, "Bash", bash("echo '(x)'"), true},
		{"PowerShell(Get-ChildItem *)", "PowerShell", bash("get-childitem C:\\"), true},
		{"Edit(*.ts)", "Edit", file("/proj/src/a.ts"), true},
		{"Edit(*.ts)", "Edit", file("/proj/src/a.go"), false},
		{"Edit(*.ts)", "Write", file("/proj/src/a.ts"), false},
		{"Write(src/**)", "Write", file("/proj/src/a/b.go"), true},
		{"Write(src/**)", "Write", file("/proj/lib/src/b.go"), false},
		{"Write(/src/**)", "Write", file("/proj/src/b.go"), true},
		{"Read(node_modules)", "Read", file("/proj/node_modules/x/y.js"), true},
		{"Read(//etc/passwd)", "Read", file("/etc/passwd"), true},
		{"Read(//etc/**)", "Read", file("/etc/ssh/sshd_config"), true},
		{"Read(/proj/secret.txt)", "Read", file("/proj/secret.txt"), true}, // the whole-path wildcard
		{"NotebookEdit(*.ipynb)", "NotebookEdit", `{"notebook_path":"/proj/n.ipynb","new_source":"x"}`, true},
		{"Glob(**/*.go)", "Glob", `{"pattern":"**/*.go"}`, true},
		{"Grep(TODO*)", "Grep", `{"pattern":"TODO: fix"}`, true},
		{"Grep(TODO*)", "Grep", `{"pattern":"FIXME"}`, false},
	} {
		t.Run(c.cond+" "+c.input, func(t *testing.T) {
			cond, err := CompileCondition(EventPreToolUse, c.cond)
			require.NoError(t, err)
			assert.Equal(t, c.want, cond.MatchEvent(toolEvent(t, EventPreToolUse, c.tool, c.input)))
		})
	}
}

func TestConditionErrors(t *testing.T) {
	var zero Condition
	assert.True(t, zero.MatchEvent(fixtureEvent(t, "stop.json")), "no condition matches")
	empty, err := CompileCondition(EventStop, "")
	require.NoError(t, err)
	assert.True(t, empty.MatchEvent(fixtureEvent(t, "stop.json")))

	for _, ev := range []string{EventStop, EventUserPromptSubmit, EventPostToolBatch, EventSessionStart} {
		c, err := CompileCondition(ev, "Bash")
		require.ErrorIs(t, err, ErrConditionIgnored, ev)
		assert.False(t, c.MatchEvent(fixtureEvent(t, "stop.json")))
	}
	for _, ev := range []string{EventPostToolUse, EventPostToolUseFailure, EventPermissionRequest, EventPermissionDenied, EventPreSkillShellCommand} {
		c, err := CompileCondition(ev, "Bash(git *)")
		require.NoError(t, err, ev)
		assert.True(t, c.MatchEvent(toolEvent(t, ev, "Bash", `{"command":"git log"}`)), ev)
		assert.False(t, c.MatchEvent(toolEvent(t, EventPreToolUse, "Bash", `{"command":"git log"}`)), "another event")
	}
	for _, bad := range []string{"Bash(git", "Bash)", "(git)", "Bash(a)b", "WebFetch(domain:example.com)", "mcp__m__t(x)"} {
		c, err := CompileCondition(EventPreToolUse, bad)
		require.ErrorIs(t, err, ErrInvalidCondition, bad)
		assert.False(t, c.MatchEvent(toolEvent(t, EventPreToolUse, "Bash", `{"command":"git"}`)), bad)
	}
	mon, err := CompileCondition(EventPreToolUse, "Monitor(tail *)")
	require.NoError(t, err)
	assert.False(t, mon.MatchEvent(toolEvent(t, EventPreToolUse, "Monitor", `{"description":"d"}`)), "Monitor without a command never matches")
	assert.True(t, mon.MatchEvent(toolEvent(t, EventPreToolUse, "Monitor", `{"command":"tail -f x"}`)))
}

func TestSimpleCommands(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
		ok   bool
	}{
		{"ls -l", []string{"ls -l"}, true},
		{"a && b || c; d | e & f |& g\nh", []string{"a", "b", "c", "d", "e", "f", "g", "h"}, true},
		{`echo "a b" 'c d' e\ f`, []string{"echo a b c d e f"}, true},
		{"X=1 Y=2 make all", []string{"make all"}, true},
		{"make X=1", []string{"make X=1"}, true},
		{"cmd >out 2>&1 < in &>log", []string{"cmd"}, true},
		{"cmd 2> err arg", []string{"cmd arg"}, true},
		{"echo ${HOME}", []string{"echo ${HOME}"}, true},
		{"echo $(x)", nil, false},
		{"echo `x`", nil, false},
		{"(cd x)", nil, false},
		{"{ a; }", nil, false},
		{"cat <<EOF", nil, false},
		{"diff <(a) b", nil, false},
		{`echo "unclosed`, nil, false},
		{"echo 'unclosed", nil, false},
		{"", nil, true},
		{"git push # to main", []string{"git push"}, true},
		{"! git push", []string{"git push"}, true},
		{"echo a{b,c}d", []string{"echo a{b,c}d"}, true},
		{"echo ~/x $HOME ${X:-y} \"$Y\"", []string{"echo ~/x $HOME ${X:-y} $Y"}, true},
		{`printf $'a\tb'`, []string{"printf a\tb"}, true},
		{`echo "a\"b\\c\d"`, []string{`echo a"b\c\d`}, true},
		{"git \\\npush", []string{"git push"}, true},
		{"> out", nil, true},
		{"NAME+=1 make", []string{"make"}, true},
		{"cat <<< word", nil, false},
		{"echo $((1+2))", nil, false},
		{"echo $()", nil, false},
		{"echo > $(x)", nil, false},
		{"if true; then git push; fi", nil, false},
		{"for f in *; do rm $f; done", nil, false},
		{"f() { git push; }", nil, false},
	} {
		got, ok := simpleCommands(c.line)
		assert.Equal(t, c.ok, ok, c.line)
		if c.ok {
			assert.Equal(t, c.want, got, c.line)
		}
	}
}

func TestWildcardMatch(t *testing.T) {
	for _, c := range []struct {
		pat, v string
		want   bool
	}{
		{"a*c", "abc", true},
		{"a*c", "abcd", false},
		{"a*b*c", "aXbYbc", true},
		{`a\*`, "a*", true},
		{`a\*`, "ab", false},
		{"src/**/x.go", "src/x.go", true},
		{"src/**/x.go", "src/a/b/x.go", true},
		{"*", "", true},
		{"", "", true},
		{"x", "x\x00", false},
		{"git *", "git", true},
		{"git *", "gitk", false},
		{"git * x", "git a x", true},
		{"git commit *", "git\t\tcommit  -m x", true},
		{"git  commit", "git commit", true},
		{"a b", "a\tb", true},
		{"a b", "ab", false},
	} {
		assert.Equal(t, c.want, wildcardMatch(c.pat, c.v, false, true), "%q ~ %q", c.pat, c.v)
	}
}

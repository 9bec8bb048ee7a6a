package shell

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var env = map[string]string{"HOME": "/home/dev", "PWD": "/work/app", "EMPTY": ""}

func lookup(name string) (string, bool) {
	v, ok := env[name]
	return v, ok
}

// texts returns the Text of each word.
func texts(ws []Word) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		out = append(out, w.Text)
	}
	return out
}

// argv returns each command's words' Text, joined with "|" between words.
func argv(t *testing.T, src string) []string {
	t.Helper()
	s, err := Parse(src, lookup)
	require.NoError(t, err, src)
	var out []string
	for _, c := range s.Commands {
		out = append(out, strings.Join(texts(c.Args), "|"))
	}
	return out
}

func TestParseSplitsCommands(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"ls -la", []string{"ls|-la"}},
		{"a; b && c || d | e |& f & g", []string{"a", "b", "c", "d", "e", "f", "g"}},
		{"a\nb\n\nc", []string{"a", "b", "c"}},
		{"(cd x && make) ; { echo hi; }", []string{"cd|x", "make", "echo|hi"}},
		{"if test -f x; then rm x; elif true; then :; else echo no; fi", []string{"test|-f|x", "rm|x", "true", ":", "echo|no"}},
		{"for f in a b; do rm -rf \"$f\"; done", []string{"rm|-rf|"}},
		{"while read l; do echo $l; done < file", []string{"read|l", "echo|", ""}},
		{"function f { rm -rf x; }", []string{"rm|-rf|x"}},
		{"! grep -q x f", []string{"grep|-q|x|f"}},
		{"time make", []string{"make"}},
		{"echo a # rm -rf /", []string{"echo|a"}},
		{"echo a#b", []string{"echo|a#b"}},
		{"(( i++ )) && echo $((1+2))", []string{"echo|"}},
		{"echo 'a;b' \"c|d\" e\\&f", []string{"echo|a;b|c|d|e&f"}},
		{"echo a\\\nb", []string{"echo|ab"}},
		{"ls \\\n  -la", []string{"ls|-la"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, argv(t, tt.src), tt.src)
	}
}

func TestParseOperatorsAndPositions(t *testing.T) {
	src := "FOO=1 go test ./... 2>&1 | tail -5; echo done &"
	s, err := Parse(src, lookup)
	require.NoError(t, err)
	require.Len(t, s.Commands, 3)
	c := s.Commands[0]
	assert.Equal(t, []string{"FOO=1"}, texts(c.Assigns))
	assert.Equal(t, []string{"go", "test", "./..."}, texts(c.Args))
	require.Len(t, c.Redirects, 1)
	assert.Equal(t, ">&", c.Redirects[0].Op)
	assert.Equal(t, "1", c.Redirects[0].Target.Text)
	assert.Equal(t, "|", c.Op)
	assert.Equal(t, 0, c.Pos)
	assert.Equal(t, strings.Index(src, "go"), c.Args[0].Pos)
	assert.Equal(t, ";", s.Commands[1].Op)
	assert.Equal(t, "&", s.Commands[2].Op)
	assert.Equal(t, "echo done", strings.TrimSpace(src[s.Commands[2].Pos:s.Commands[2].End]))
	assert.False(t, s.Compound)

	for _, src := range []string{"(a)", "{ a; }", "if a; then b; fi", "for x in y; do z; done", "[[ -f x ]]", "((x))", "function f { a; }"} {
		s, err := Parse(src, nil)
		require.NoError(t, err, src)
		assert.True(t, s.Compound, src)
	}
}

func TestParseQuotesAndExpansions(t *testing.T) {
	tests := []struct {
		src     string
		want    []string
		unknown []string
	}{
		{`rm -rf ~`, []string{"rm", "-rf", "/home/dev"}, nil},
		{`rm -rf ~/`, []string{"rm", "-rf", "/home/dev/"}, nil},
		{`rm -rf "~"`, []string{"rm", "-rf", "~"}, nil},
		{`rm -rf a~`, []string{"rm", "-rf", "a~"}, nil},
		{`rm -rf $HOME "${HOME}"/x '$HOME'`, []string{"rm", "-rf", "/home/dev", "/home/dev/x", "$HOME"}, nil},
		{`rm -rf "$DIR/"`, []string{"rm", "-rf", "/"}, []string{"$DIR"}},
		{`rm -rf ${DIR:?}/`, []string{"rm", "-rf", "\x00DIR/"}, nil},
		{`rm -rf ${DIR:-/tmp/x}`, []string{"rm", "-rf", "/tmp/x"}, nil},
		{`rm -rf ${HOME:-/tmp/x}`, []string{"rm", "-rf", "/home/dev"}, nil},
		{`rm -rf ${EMPTY:-/tmp/x} ${EMPTY-/tmp/y}`, []string{"rm", "-rf", "/tmp/x", ""}, nil},
		{`rm -rf ${DIR%/*}`, []string{"rm", "-rf", ""}, []string{"${DIR%/*}"}},
		{`rm -rf "$(pwd)" $(pwd)/x`, []string{"rm", "-rf", "/work/app", "/work/app/x"}, nil},
		{`rm -rf "$(dirname "$x")/"`, []string{"rm", "-rf", "/"}, []string{`$(dirname "$x")`}},
		{`rm -rf "$(dirname x)/"`, []string{"rm", "-rf", "./"}, nil},
		{"rm -rf `echo /`", []string{"rm", "-rf", "/"}, nil},
		{"rm -rf `cat list`", []string{"rm", "-rf", ""}, []string{"`cat list`"}},
		{`echo $'a\tb\x41\101\'' $"c"`, []string{"echo", "a\tbAA'", "c"}, nil},
		{`echo "a\"b\$c\\d\e"`, []string{"echo", `a"b$c\d\e`}, nil},
		{`echo $1 $@ $? $$ $`, []string{"echo", "", "", "", "", "$"}, []string{"$1", "$@", "$?", "$$"}},
		{`echo ${#HOME}`, []string{"echo", "0"}, nil},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, lookup)
		require.NoError(t, err, tt.src)
		require.NotEmpty(t, s.Commands, tt.src)
		c := s.Commands[len(s.Commands)-1]
		assert.Equal(t, tt.want, texts(c.Args), tt.src)
		var unknown []string
		for _, w := range c.Args {
			unknown = append(unknown, w.Unknown...)
		}
		assert.Equal(t, tt.unknown, unknown, tt.src)
	}
}

func TestParseGlobs(t *testing.T) {
	s, err := Parse(`rm -rf * "*" ./a?b '[x]' ~/*`, lookup)
	require.NoError(t, err)
	ws := s.Commands[0].Args
	assert.True(t, ws[2].Glob)
	assert.Equal(t, "*", ws[2].Pattern)
	assert.False(t, ws[3].Glob)
	assert.Equal(t, `\*`, ws[3].Pattern)
	assert.True(t, ws[4].Glob)
	assert.False(t, ws[5].Glob)
	assert.Equal(t, `\[x]`, ws[5].Pattern)
	assert.True(t, ws[6].Glob)
	assert.Equal(t, "/home/dev/*", ws[6].Pattern)
}

func TestParseBraceExpansion(t *testing.T) {
	assert.Equal(t, []string{"rm|-rf|/home/dev/.cache|/home/dev/.npm"}, argv(t, `rm -rf ~/{.cache,.npm}`))
	assert.Equal(t, []string{"rm|-rf|/home/dev|x"}, argv(t, `rm -rf {~,x}`))
	assert.Equal(t, []string{"echo|a{b}|{}|{a,b}"}, argv(t, `echo a{b} {} "{a,b}"`))
	assert.ElementsMatch(t, []string{"a1", "a2", "b1", "b2"}, strings.Split(argv(t, `echo {a,b}{1,2}`)[0], "|")[1:])
	assert.Equal(t, []string{"echo|${x,y}"}, argv(t, `echo '${x,y}'`))
}

func TestParseSubstitutionsAreNested(t *testing.T) {
	s, err := Parse("echo $(rm -rf /; ls) `touch x` <(cat y) | wc", lookup)
	require.NoError(t, err)
	var got []string
	for _, c := range s.Commands {
		got = append(got, strings.Join(texts(c.Args), " ")+map[bool]string{true: " (nested)", false: ""}[c.Nested])
	}
	assert.Equal(t, []string{"rm -rf / (nested)", "ls (nested)", "touch x (nested)", "cat y (nested)", "echo   ", "wc"}, got)
}

func TestParseHeredocs(t *testing.T) {
	s, err := Parse("bash <<'EOF'\nrm -rf /\necho $HOME\nEOF\necho after\ncat <<-X > f\n\tline\n\tX\n", lookup)
	require.NoError(t, err)
	require.Len(t, s.Commands, 3)
	require.Len(t, s.Commands[0].Redirects, 1)
	assert.Equal(t, "rm -rf /\necho $HOME\n", s.Commands[0].Redirects[0].Body)
	assert.Equal(t, []string{"echo", "after"}, texts(s.Commands[1].Args))
	assert.Equal(t, "\tline\n", s.Commands[2].Redirects[0].Body)
}

func TestParseErrors(t *testing.T) {
	for _, src := range []string{`echo 'a`, `echo "a`, "echo `a", `echo $(a`, `echo ${a`, "cat <<EOF\nno end", `echo $'a`, `echo >`, `echo $((1+2`} {
		_, err := Parse(src, nil)
		assert.Error(t, err, src)
	}
	deep := strings.Repeat("$(", 40) + "x" + strings.Repeat(")", 40)
	_, err := Parse("echo "+deep, nil)
	assert.ErrorIs(t, err, ErrTooDeep)
}

// programs returns "name arg arg" for each program src runs.
func programs(t *testing.T, src string) []string {
	t.Helper()
	es, err := Execs(src, lookup)
	require.NoError(t, err, src)
	var out []string
	for _, e := range es {
		s := strings.Join(texts(e.Args), " ")
		if e.Dir != "" {
			s += " [dir " + e.Dir + "]"
		}
		if e.Xargs {
			s += " [xargs]"
		}
		out = append(out, s)
	}
	return out
}

func TestExecsLooksThroughWrappers(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"sudo rm -rf /", []string{"rm -rf /"}},
		{"sudo -E -u root rm -rf /", []string{"rm -rf /"}},
		{"sudo -uroot -- /bin/rm -rf /", []string{"/bin/rm -rf /"}},
		{"sudo -D /tmp FOO=1 rm -rf x", []string{"rm -rf x [dir /tmp]"}},
		{"env -i FOO=1 BAR=2 rm -rf /", []string{"rm -rf /"}},
		{"env -C /srv --unset=X rm -rf .", []string{"rm -rf . [dir /srv]"}},
		{"env -S 'rm -rf' /", []string{"rm -rf /"}},
		{"FOO=1 nice -n 10 nohup timeout -s KILL 5m rm -rf /", []string{"rm -rf /"}},
		{"nice -10 rm x", []string{"rm x"}},
		{"command rm -rf /", []string{"rm -rf /"}},
		{"command -v rm", nil},
		{"exec -a x rm -rf /", []string{"rm -rf /"}},
		{"stdbuf -oL rm -rf /", []string{"rm -rf /"}},
		{"find . -name x | xargs -0 rm -rf", []string{"find . -name x", "rm -rf [xargs]"}},
		{"xargs -I{} rm -rf {}", []string{"rm -rf {} [xargs]"}},
		{"busybox rm -rf /", []string{"rm -rf /"}},
		{`\rm -rf /`, []string{"rm -rf /"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, programs(t, tt.src), tt.src)
	}
}

func TestExecsLooksIntoScripts(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`bash -c 'rm -rf "$HOME"'`, []string{`bash -c rm -rf "$HOME"`, "rm -rf /home/dev"}},
		{`sh -xec "cd / && rm -rf *"`, []string{"sh -xec cd / && rm -rf *", "cd /", "rm -rf *"}},
		{`bash -o pipefail -c 'git push -f'`, []string{"bash -o pipefail -c git push -f", "git push -f"}},
		{`eval "rm -rf" /`, []string{"eval rm -rf /", "rm -rf /"}},
		{"bash <<'EOF'\nrm -rf ~\nEOF", []string{"bash", "rm -rf /home/dev"}},
		{`sh <<< "rm -rf /"`, []string{"sh", "rm -rf /"}},
		{`bash script.sh`, []string{"bash script.sh"}},
		{`sudo sh -c "sudo bash -c 'rm -rf /'"`, []string{"sh -c sudo bash -c 'rm -rf /'", "bash -c rm -rf /", "rm -rf /"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, programs(t, tt.src), tt.src)
	}
	es, err := Execs("echo a; bash -c 'rm -rf x'", lookup)
	require.NoError(t, err)
	require.Len(t, es, 3)
	assert.Equal(t, 1, es[2].Depth)
	assert.Equal(t, "rm -rf x", es[2].Text())
	assert.Equal(t, "echo a", es[0].Text())
}

// TestWordsUnquoted checks the words a permission rule reads: quotes
// removed, expansions as written, each source word once, even where a
// variable is known.
func TestWordsUnquoted(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`echo "a b" 'c d' e\ f`, []string{"echo", "a b", "c d", "e f"}},
		{`echo ~/x $HOME ${HOME:-y} "$PWD/z" $(pwd)`, []string{"echo", "~/x", "$HOME", "${HOME:-y}", "$PWD/z", "$(pwd)"}},
		{"echo `date` $((1+2)) $1", []string{"echo", "`date`", "$((1+2))", "$1"}},
		{`echo "a\"b\\c\d\$x\` + "`" + `"`, []string{"echo", "a\"b\\c\\d$x`"}},
		{`printf $'a\tb' $"c"`, []string{"printf", "a\tb", "c"}},
		{"echo a{b,c}d x", []string{"echo", "a{b,c}d", "x"}},
		{"X=1 make -j2 >out 2>&1", []string{"make", "-j2"}},
		{`"$CLAUDE_PROJECT_DIR"/hooks/g.sh`, []string{"$CLAUDE_PROJECT_DIR/hooks/g.sh"}},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, lookup)
		require.NoError(t, err, tt.src)
		// A substitution's commands come first: the line's own is last.
		top := s.Commands[len(s.Commands)-1]
		assert.False(t, top.Nested, tt.src)
		assert.Equal(t, tt.want, top.Words(), tt.src)
	}
	s, err := Parse("echo a{b,c}d", lookup)
	require.NoError(t, err)
	assert.Equal(t, []string{"echo", "abd", "acd"}, texts(s.Commands[0].Args), "Text still expands braces")
}

package shell

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// last returns the words of the last command src parses into: Text, and
// the opaque expansions.
func last(t *testing.T, src string) ([]string, []string) {
	t.Helper()
	s, err := Parse(src, lookup)
	require.NoError(t, err, src)
	require.NotEmpty(t, s.Commands, src)
	c := s.Commands[len(s.Commands)-1]
	var opaque []string
	for _, w := range c.Args {
		if len(w.Opaque) > 0 && (len(opaque) == 0 || opaque[len(opaque)-1] != w.Opaque[len(w.Opaque)-1]) {
			opaque = append(opaque, w.Opaque...)
		}
	}
	return texts(c.Args), opaque
}

func TestParseVariablesTheLineSets(t *testing.T) {
	tests := []struct {
		src    string
		want   []string
		opaque []string
	}{
		{"x=/; rm -rf $x", []string{"rm", "-rf", "/"}, nil},
		{"x=/\nrm \"${x}\"", []string{"rm", "/"}, nil},
		{"export x=/a; declare y=$x/b; echo $y", []string{"echo", "/a/b"}, nil},
		{"x=a; x+=b; echo $x", []string{"echo", "ab"}, nil},
		{"x=/ echo $x", []string{"echo", ""}, nil}, // x is echo's only
		{"x=/; unset x; echo $x", []string{"echo", ""}, nil},
		{"x=~/a:~/b; echo $x", []string{"echo", "/home/dev/a:/home/dev/b"}, nil},
		{"x='a  b'; echo $x \"$x\"", []string{"echo", "a", "b", "a  b"}, nil},
		{"x=' a '; echo p${x}q", []string{"echo", "p", "a", "q"}, nil},
		{"x='*'; echo $x \"$x\"", []string{"echo", "*", "*"}, nil},
		{"HOME=/root; echo ~", []string{"echo", "/root"}, nil},
		{"cd /srv; echo $PWD $OLDPWD", []string{"echo", "/srv", "/work/app"}, nil},
		{"cd sub; echo $(pwd)", []string{"echo", "/work/app/sub"}, nil},
		{"eval x=/; echo $x", []string{"echo", "/"}, nil},
		// What the parser cannot work out is opaque.
		{"x=$(cat f); echo $x", []string{"echo", ""}, []string{"$(cat f)"}},
		{"true && x=/; echo $x", []string{"echo", ""}, []string{"$x (set only on some paths)"}},
		{"x=a; if c; then x=b; fi; echo $x", []string{"echo", ""}, []string{"$x (set only on some paths)"}},
		{"x=a | cat; echo $x", []string{"echo", ""}, []string{"$x (set only on some paths)"}},
		{"read -r x; echo $x", []string{"echo", ""}, []string{"$x (set by read)"}},
		{"for x in a b; do echo $x; done", []string{"echo", ""}, []string{"$x (a loop's variable)"}},
		{"source f; echo $y", []string{"echo", ""}, []string{"$y (after source f)"}},
		{"cd \"$D\"; echo $PWD", []string{"echo", ""}, []string{"$PWD (after cd)"}},
		{"echo ~alice/x", []string{"echo", "/x"}, []string{"~alice (another user's home folder)"}},
		{"echo ~- ~+", []string{"echo", "", "/work/app"}, []string{"~-"}},
		// A subshell's assignment stays there.
		{"echo $(x=/); echo $x", []string{"echo", ""}, nil},
		// Substitutions the parser works out.
		{"echo $(echo /) `echo a b` \"$(printf %s c)\"", []string{"echo", "/", "a", "b", "c"}, nil},
		{"echo $(dirname /a/b) $(basename /a/b) $(mktemp -d)", []string{"echo", "/a", "b", "/tmp/tmp.XXXXXXXXXX"}, nil},
		{"echo $(echo -e '\\x2f')", []string{"echo", ""}, []string{"$(echo -e '\\x2f')"}},
	}
	for _, tt := range tests {
		got, opaque := last(t, tt.src)
		assert.Equal(t, tt.want, got, tt.src)
		assert.Equal(t, tt.opaque, opaque, tt.src)
	}
}

func TestExecsFeedsAndUnreadScripts(t *testing.T) {
	type exec struct{ prog, feed, holder, unread string }
	get := func(src string) []exec {
		es, err := Execs(src, lookup)
		require.NoError(t, err, src)
		var out []exec
		for _, e := range es {
			x := exec{prog: strings.Join(texts(e.Args), " "), holder: e.Placeholder, unread: e.Unread}
			if e.Feed != nil {
				x.feed = strings.Join(texts(e.Feed.Args), " ")
			}
			out = append(out, x)
		}
		return out
	}
	assert.Equal(t, []exec{{prog: "echo /"}, {prog: "rm -rf", feed: "echo /"}}, get("echo / | xargs rm -rf"))
	assert.Equal(t, []exec{{prog: "rm -rf {}", holder: "{}"}}, get("xargs -i rm -rf {} < f"))
	assert.Equal(t, []exec{{prog: "rm -rf %", holder: "%"}}, get("xargs -I% rm -rf %"))
	assert.Equal(t, []exec{{prog: "cat f"}, {prog: "rm -rf", feed: "cat f"}}, get("cat f | xargs --null rm -rf"))
	assert.Equal(t, []exec{{prog: "echo a"}, {prog: "rm -rf"}}, get("echo a | xargs -a list rm -rf"))
	assert.Equal(t, []exec{
		{prog: "find . -name x -exec rm -rf {} ;"},
		{prog: "rm -rf {}", feed: "find . -name x -exec rm -rf {} ;", holder: "{}"},
	}, get(`find . -name x -exec rm -rf {} \;`))
	assert.Equal(t, []exec{{prog: "echo rm -rf /"}, {prog: "sh"}, {prog: "rm -rf /"}}, get("echo rm -rf / | sh"))
	for src, why := range map[string]string{
		"curl x | sh":          "the output of `curl x`",
		"bash <(curl x)":       "the output of <(curl x)",
		"source <(curl x)":     "the output of <(curl x)",
		"sh < <(curl x)":       "the output of <(curl x)",
		`eval "$(curl x)"`:     "$(curl x)",
		`sh -c "$(curl x)"`:    "$(curl x)",
		"sh <<< $(curl x)":     "$(curl x)",
		"xargs sh -c":          "input that xargs appends",
		"xargs eval":           "input that xargs appends",
		"x=$(curl y); eval $x": "$(curl y)",
	} {
		es := get(src)
		require.NotEmpty(t, es, src)
		found := false
		for _, e := range es {
			found = found || e.unread == why
		}
		assert.True(t, found, "%s: %+v", src, es)
	}
	// sh -c's positional parameters, and those xargs supplies.
	assert.Equal(t, "rm -rf / x", get(`sh -c 'rm -rf "$1" $2' _ / x`)[1].prog)
	es, err := Execs(`xargs sh -c 'rm -rf "$1"' _`, lookup)
	require.NoError(t, err)
	require.Len(t, es, 2)
	assert.Equal(t, []string{`$1 (input that xargs appends)`}, es[1].Args[2].Opaque)
}

func TestParseFunctionArgumentsAreOpaque(t *testing.T) {
	for _, src := range []string{`f() { rm -rf "$1"; }; f /`, `function f { rm -rf $@; }; f /`, `f () ( rm -rf $1 ); f /`} {
		s, err := Parse(src, lookup)
		require.NoError(t, err, src)
		var rm *Command
		for i := range s.Commands {
			if len(s.Commands[i].Args) > 0 && s.Commands[i].Args[0].Text == "rm" {
				rm = &s.Commands[i]
			}
		}
		require.NotNil(t, rm, src)
		assert.NotEmpty(t, rm.Args[2].Opaque, src)
	}
	_, opaque := last(t, "echo $1")
	assert.Empty(t, opaque, "outside a function, $1 is the line's: empty")
}

func TestParsePositionalArraysAndReferences(t *testing.T) {
	tests := []struct {
		src    string
		want   []string
		opaque bool
	}{
		{"set -- / x; echo $1 $2", []string{"echo", "/", "x"}, false},
		{"set -e -- a; echo $1", []string{"echo", "a"}, false},
		{"set -o pipefail; echo $1", []string{"echo", ""}, false},
		{"set -- a /; shift; echo $1", []string{"echo", ""}, true},
		{"a=(/ x); echo $a", []string{"echo", ""}, true},
		{"a=(/\n x); echo \"${a[@]}\"", []string{"echo", ""}, true},
		{"x=/; declare -n r=x; echo $r", []string{"echo", ""}, true},
		{"declare -a a=x; echo $a", []string{"echo", ""}, true},
	}
	for _, tt := range tests {
		got, opaque := last(t, tt.src)
		assert.Equal(t, tt.want, got, tt.src)
		assert.Equal(t, tt.opaque, len(opaque) > 0, tt.src)
	}
	_, err := Parse("a=(x", nil)
	assert.Error(t, err)
}

package shell

import (
	"testing"
)

// FuzzExecs checks that no command line makes the parser panic or report
// positions outside the line. (Guards built on it fail closed, so a panic
// would refuse every command of that shape.)
func FuzzExecs(f *testing.F) {
	for _, s := range []string{
		"rm -rf ~", "sudo -u root rm -rf --no-preserve-root /", "a; b && c || d | e &", "echo $(ls `pwd`) <(cat x)",
		"bash <<'EOF'\nrm -rf /\nEOF\n", `echo ${x:-"y"} $'a\x41' "q\"b"`, "rm -rf {~,/tmp/{a,b}}", "if a; then b; fi",
		"case x in a) rm -rf /;; esac", "env -S 'rm -rf' /", `eval "$(echo x)"`, "cd ~ && rm -rf .*", "f() { :; }",
		"echo \\\n  x # c", "x=1 y=$((2+3)) z", ">out 2>&1 <in cmd", "$(", "'", "${", "<<", "((", "{a,", "\\",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse(src, lookup)
		if err == nil {
			for _, c := range s.Commands {
				for _, w := range append(append([]Word(nil), c.Assigns...), c.Args...) {
					if !c.Nested && (w.Pos < 0 || w.Pos+len(w.Raw) > len(src)) {
						t.Fatalf("word %q at %d outside %q", w.Raw, w.Pos, src)
					}
				}
			}
		}
		es, err := Execs(src, lookup)
		if err == nil {
			for _, e := range es {
				_ = e.Text()
				if len(e.Args) == 0 {
					t.Fatalf("an exec without words in %q", src)
				}
			}
		}
	})
}

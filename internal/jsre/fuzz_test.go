package jsre

import (
	"errors"
	"testing"
)

// FuzzCompile checks that no source makes Compile panic or hang, that an
// error is always an *Error of a known kind with the Regexp the kind
// promises, and that a compiled Regexp tests strings without panicking.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{"Edit.*", "Bash|Read(", "(?i:bash)", `\u0042ash`, "[^]", "a{2,1}", "(?<n>a)\\k<n>", "[\\d-z]", "(?=a)", "\\c", "[[:alpha:]]", "😀+", "(?s-i:.)"} {
		f.Add(s, "Bash")
	}
	f.Fuzz(func(t *testing.T, src, s string) {
		re, err := Compile(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not an *Error", err)
			}
			switch e.Kind {
			case Invalid, Unsupported:
				if re != nil {
					t.Fatalf("kind %d with a Regexp", e.Kind)
				}
				return
			case GoSyntax:
			default:
				t.Fatalf("unknown kind %d", e.Kind)
			}
		}
		if re == nil {
			t.Fatal("no Regexp and no error")
		}
		_ = re.Test(s)
		again, err2 := Compile(src)
		if (err == nil) != (err2 == nil) || again.Test(s) != re.Test(s) {
			t.Fatal("Compile is not deterministic")
		}
	})
}

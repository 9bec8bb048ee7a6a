package jsre

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// modifierGroup finds a regexp modifier group such as (?i:.
var modifierGroup = regexp.MustCompile(`\(\?[ims-]+:`)

// TestOracle compares every pattern of testdata/cases.json on every string
// with what a JavaScript engine answered (testdata/oracle.json, recorded
// by testdata/oracle.mjs): the same syntax errors, the same matches. The
// only patterns allowed to differ are those Compile reports Unsupported,
// and the regexp modifiers, which the recording engine (V8 of node 20)
// rejects while Claude Code's engine accepts them (TestModifiers).
func TestOracle(t *testing.T) {
	var oracle struct {
		Strings []string
		Results []struct {
			Pattern     string
			SyntaxError bool
			Matches     string
		}
	}
	b, err := os.ReadFile("testdata/oracle.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &oracle); err != nil {
		t.Fatal(err)
	}
	if len(oracle.Results) < 150 || len(oracle.Strings) < 80 {
		t.Fatalf("oracle has only %d patterns and %d strings", len(oracle.Results), len(oracle.Strings))
	}
	unsupported := 0
	for _, r := range oracle.Results {
		if modifierGroup.MatchString(r.Pattern) {
			continue
		}
		re, err := Compile(r.Pattern)
		var e *Error
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("%q: error %T is not an *Error", r.Pattern, err)
		}
		if e != nil && e.Kind == Unsupported {
			unsupported++
			if re != nil {
				t.Errorf("%q: Unsupported with a Regexp", r.Pattern)
			}
			continue
		}
		if r.SyntaxError {
			if e == nil || e.Kind != Invalid || re != nil {
				t.Errorf("%q: JavaScript throws a SyntaxError; Compile = %v, %v", r.Pattern, re, err)
			}
			continue
		}
		if re == nil {
			t.Errorf("%q: valid JavaScript; Compile failed: %v", r.Pattern, err)
			continue
		}
		for i, s := range oracle.Strings {
			if want := r.Matches[i] == '1'; re.Test(s) != want {
				t.Errorf("%q.test(%q) = %v in JavaScript, %v here (Go program %s)", r.Pattern, s, want, !want, re.GoRegexp())
			}
		}
	}
	if unsupported > 12 {
		t.Errorf("%d oracle patterns unsupported; the oracle should mostly test translations", unsupported)
	}
}

func TestKinds(t *testing.T) {
	for _, c := range []struct {
		src  string
		kind Kind
		msg  string
	}{
		{"Bash|Read(", Invalid, "missing )"},
		{"(?i)bash", Invalid, "flag group"},
		{"(?P<n>Bash)", Invalid, "(?P<name>"},
		{"a)", Invalid, "unmatched ')'"},
		{"[a", Invalid, "missing terminating ]"},
		{"*a", Invalid, "nothing to repeat"},
		{"a{2,1}", Invalid, "out of order"},
		{`\`, Invalid, `\ at end`},
		{"[z-a]", Invalid, "range out of order"},
		{"(?=Bash)", Unsupported, "lookahead"},
		{"^(?!Bash$)", Unsupported, "lookahead"},
		{"(?<=a)b", Unsupported, "lookbehind"},
		{"(?<!a)b", Unsupported, "lookbehind"},
		{`(a)\1`, Unsupported, "back-reference"},
		{`(?<x>a)\k<x>`, Unsupported, "back-reference"},
		{"(?m:^a)", Unsupported, "multiline"},
		{"(?m:a$)", Unsupported, "multiline"},
		{"(?-:a)", Invalid, "modifiers"},
		{"(?ii:a)", Invalid, "modifiers"},
		{"(?i-i:a)", Invalid, "modifiers"},
		{"(?x:a)", Invalid, "invalid group"},
		{"a{1001}", Unsupported, "over 1000"},
		{`Bash\z`, GoSyntax, `literal "z"`},
		{`\ABash`, GoSyntax, `literal "A"`},
		{`\pL`, GoSyntax, "Unicode class"},
		{`[[:alpha:]]`, GoSyntax, "POSIX"},
	} {
		re, err := Compile(c.src)
		var e *Error
		if !errors.As(err, &e) || e.Kind != c.kind || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("Compile(%q) error = %v; want kind %d containing %q", c.src, err, c.kind, c.msg)
			continue
		}
		if (re != nil) != (c.kind == GoSyntax) {
			t.Errorf("Compile(%q) Regexp = %v with kind %d", c.src, re, c.kind)
		}
	}
}

// TestCodeUnits checks that characters outside the BMP count as two code
// units, as in JavaScript without the u flag.
func TestCodeUnits(t *testing.T) {
	for _, c := range []struct {
		src, s string
		want   bool
	}{
		{"^.$", "😀", false},
		{"^..$", "😀", true},
		{`^\uD83D\uDE00$`, "😀", true},
		{`^[\uD800-\uDBFF]`, "😀x", true},
		{`^[\uD800-\uDBFF]`, "x😀", false},
		{"^[^a]{2}$", "😀", true},
		{"^😀$", "😀", true},
		{"^😀+$", "😀😀", false},
		{`^\S$`, "\U000F0000", false}, // a real astral rune is two units too
		{"^.{2}$", "\U000F0000", true},
		{`^[\s]$`, "\u3000", true},
		{`^\s$`, "\v", true},
	} {
		re, err := Compile(c.src)
		if err != nil {
			t.Fatalf("Compile(%q): %v", c.src, err)
		}
		if got := re.Test(c.s); got != c.want {
			t.Errorf("%q.test(%q) = %v, want %v (%s)", c.src, c.s, got, c.want, re.GoRegexp())
		}
	}
}

// TestHostile checks that odd sources fail cleanly or compile, never
// panic, and that a long source is handled.
func TestHostile(t *testing.T) {
	srcs := []string{"", "(", ")", "[", "\\", "{", "}", "]", "(?", "(?<", "(?<>", "(?<a", "(?<a>", "[\\", "[a-", "[a-\\", "a{99999999999999999999}", "a{1,99999999999999999999}",
		"\\u", "\\x", "\\c", "(((((((((((", strings.Repeat("(", 5000) + strings.Repeat(")", 5000), strings.Repeat("a|", 10000), strings.Repeat("a*", 100000), strings.Repeat("[a-z]?", 50000), "\xff"}
	var wide strings.Builder // a class of 10000 members that do not merge
	wide.WriteString("(?i:[")
	for c := rune(0x4E00); c < 0x4E00+20000; c += 2 {
		wide.WriteRune(c)
	}
	wide.WriteString("])")
	srcs = append(srcs, wide.String())
	for _, s := range srcs {
		re, err := Compile(s)
		if re == nil && err == nil {
			t.Errorf("Compile(%q) = nil, nil", s)
		}
	}
	deep := strings.Repeat("(", 1_000_000) + "a" + strings.Repeat(")", 1_000_000)
	if _, err := Compile(deep); err == nil || err.(*Error).Kind != Unsupported {
		t.Errorf("a million nested groups: %v", err)
	}
	if _, err := Compile(strings.Repeat("(", 1001)); err == nil || err.(*Error).Kind != Unsupported {
		t.Errorf("1001 unclosed groups: %v (too deep to follow, so not judged invalid)", err)
	}
	if _, err := Compile("\xff"); err == nil {
		t.Error("invalid UTF-8 compiled")
	}
}

// TestModifiers: the ES2025 modifier groups, which the real 2.1.332
// accepts ((?i:bash) and (?s:B.sh) fired on Bash there), with
// JavaScript's case folding without the u flag.
func TestModifiers(t *testing.T) {
	for _, c := range []struct {
		src, s string
		want   bool
	}{
		{"(?i:bash)", "Bash", true},
		{"(?i:bash)", "BASH", true},
		{"^(?i:bash)$", "bas", false},
		{"(?i:k)", "K", true},
		{"(?i:k)", "\u212A", false}, // Kelvin sign: Go's (?i) would match
		{"(?i:s)", "\u017F", false}, // long s: Go's (?i) would match
		{"(?i:\\w)", "\u017F", false},
		{"(?i:\u03C3)", "\u03A3", true},  // sigma
		{"(?i:\u03C3)", "\u03C2", true},  // final sigma
		{"(?i:\u00DF)", "\u1E9E", false}, // sharp s: its uppercase is two letters
		{"(?i:\u1F80)", "\u1F88", false},
		{"(?i:[a-c])", "B", true},
		{"(?i:[^a])", "A", false},
		{"(?i:[^a])", "b", true},
		{"(?i:a(?-i:b))", "Ab", true},
		{"(?i:a(?-i:b))", "AB", false},
		{"(?s:B.sh)", "B\nsh", true},
		{"B.sh", "B\nsh", false},
		{"(?s-i:B.sh)", "B\u2028sh", true},
		{"(?i:a)+", "aAa", true},
		{"(?i:\u00E9)", "\u00C9", true},
	} {
		re, err := Compile(c.src)
		if err != nil {
			t.Fatalf("Compile(%q): %v", c.src, err)
		}
		if got := re.Test(c.s); got != c.want {
			t.Errorf("%q.test(%q) = %v, want %v (%s)", c.src, c.s, got, c.want, re.GoRegexp())
		}
	}
}

// TestFoldCaseOrbits: for every code unit, the quick fold of a small set
// (the simple case-folding orbit) equals the fold by Canonicalize over
// all code units.
func TestFoldCaseOrbits(t *testing.T) {
	canons := canonTable()
	group := map[uint16]ranges{}
	for c := 0; c <= 0xFFFF; c++ {
		group[canons[c]] = append(group[canons[c]], [2]rune{rune(c), rune(c)})
	}
	bad := 0
	for c := rune(0); c <= 0xFFFF; c++ {
		got, want := ranges{{c, c}}.foldCase(), group[canons[c]].normalize()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			if bad++; bad <= 5 {
				t.Errorf("U+%04X: quick fold %v, full fold %v", c, got, want)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d code units fold differently", bad)
	}
}

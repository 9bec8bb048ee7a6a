// Command longcontext is a hook for the end-to-end tests that answers
// with a long additionalContext, to show what Claude Code does with it
// under each hook.Server LongText policy:
//
//	longcontext -n 30000 -tag SS                  # the default policy (spill)
//	longcontext -n 10001 -tag PRE -policy truncate
//	longcontext -n 10000 -tag POST -print         # prints the text and exits
//
// The text is Text(tag, n), n UTF-16 code units long; see its comment.
// The test compares what the model got with -print's text, so that the
// text is made in one place.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/gohooks/hook"
)

func main() {
	n := flag.Int("n", 30000, "the length of the context in UTF-16 code units")
	tag := flag.String("tag", "CTX", "the tag that starts and ends the text")
	policy := flag.String("policy", "", "spill (the default), truncate or refuse")
	printText := flag.Bool("print", false, "print the text on stdout instead of running as a hook")
	flag.Parse()
	if *printText {
		os.Stdout.WriteString(Text(*tag, *n))
		return
	}
	s := hook.Server{Handler: hook.HandlerFunc(func(_ context.Context, ev *hook.Event) (hook.Output, error) {
		return Answer(ev.HookEventName, Text(*tag, *n))
	})}
	switch *policy {
	case "", "spill":
	case "truncate":
		s.LongText = hook.LongTextTruncate
	case "refuse":
		s.LongText = hook.LongTextRefuse
	default:
		fmt.Fprintln(os.Stderr, "longcontext: unknown -policy", *policy)
		os.Exit(1)
	}
	s.Run()
}

// Answer is the answer carrying context to the event name.
func Answer(name, context string) (hook.Output, error) {
	switch name {
	case hook.EventSessionStart:
		return &hook.SessionStartOutput{AdditionalContext: context}, nil
	case hook.EventUserPromptSubmit:
		return &hook.UserPromptSubmitOutput{AdditionalContext: context}, nil
	case hook.EventPreToolUse:
		return &hook.PreToolUseOutput{AdditionalContext: context}, nil
	case hook.EventPostToolUse:
		return &hook.PostToolUseOutput{AdditionalContext: context}, nil
	}
	return nil, nil
}

// Text returns a text of exactly n UTF-16 code units (n ≥ 40) that
// starts with "START-<tag>\n" and ends with "END-<tag>": numbered lines
// holding two-byte (é), three-byte (€) and astral (😀, two code units)
// characters, every other line ended by CRLF, so that a cut can be
// placed exactly.
func Text(tag string, n int) string {
	start, end := "START-"+tag+"\n", "END-"+tag
	var b strings.Builder
	b.WriteString(start)
	units := len(start)
	for i := 1; units < n; i++ {
		eol := "\n"
		if i%2 == 0 {
			eol = "\r\n"
		}
		line := fmt.Sprintf("%s %05d é€😀 the quick brown fox%s", tag, i, eol)
		for _, r := range line {
			b.WriteRune(r)
			units++
			if r >= 0x10000 {
				units++
			}
		}
	}
	s := b.String()
	// Cut to n-len(end) units, never inside a surrogate pair.
	want, units, cut := n-len(end), 0, 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if units+w > want {
			break
		}
		units += w
		cut = i + utf8.RuneLen(r)
	}
	return s[:cut] + strings.Repeat("x", want-units) + end
}

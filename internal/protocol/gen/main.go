// Command gen writes the root package's generated files from the
// protocol table (internal/protocol) and the package's own declarations:
// events_gen.go, the protocol's facts (the events list in the Agent SDK's
// order, eventNames, knownEvent, canBlock, the matcher fields, the block
// forms, which events honour a halt), and adapters_gen.go, the typed
// adapters (FooFunc and its ServeHook) and the answer methods that follow
// from a row: combine (which calls join) and appendAnswer (which checks
// the event and calls appendForm) for every answer; appendForm and join
// themselves where the Answer column says the answer's fields decide
// them; and, where the row says so, refuses (Decisions), denyAnswer (BlockDeny),
// feedbackBlock (Feedback) and the plain-text forms (Text). The event's
// name constant (EventFoo = "Foo", its doc "EventFoo fires …") and its
// structs are hand-written Go in each event's file: gen reads them with
// go/parser (see [protocol.ReadConsts] and [protocol.ReadTypes]) only to
// check them against the table — every row has its constant, spelt as
// the row, documented, in the file of its input struct, and no such
// constant lacks a row — and that an answer whose methods the Answer
// column generates holds the fields they write. It is
// run by `go generate ./...` from the module root (see events.go); CI
// fails when its output differs from the committed files.
// An optional argument names the package's directory, read and written.
package main

import (
	"bytes"
	"cmp"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/gohooks/hook/internal/protocol"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	types, err := protocol.ReadTypes(dir)
	if err != nil {
		log.Fatal(err)
	}
	consts, err := protocol.ReadConsts(dir)
	if err != nil {
		log.Fatal(err)
	}
	files, err := generate(protocol.Events, types, consts)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Src, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// A file is one generated file of the root package.
type file struct {
	// Name is the file's name in the package's directory.
	Name string
	// Src is its gofmt'ed source.
	Src []byte
}

// generate returns the generated files of the root package for events
// and the package's struct types and string constants: events_gen.go, the
// protocol's facts, and adapters_gen.go, the typed adapters and the
// per-event glue of their answers.
func generate(events []protocol.Event, types []protocol.Type, consts []protocol.Const) ([]file, error) {
	if err := checkNames(events, types, consts); err != nil {
		return nil, err
	}
	if err := checkAnswers(events, types); err != nil {
		return nil, err
	}
	var files []file
	for _, t := range []*template.Template{facts, adapters} {
		var b bytes.Buffer
		if err := t.Execute(&b, events); err != nil {
			return nil, err
		}
		src, err := format.Source(b.Bytes())
		if err != nil {
			return nil, fmt.Errorf("gen: formatting %s: %v\n%s", t.Name(), err, b.Bytes())
		}
		files = append(files, file{Name: t.Name(), Src: src})
	}
	return files, nil
}

// An answerForm is what the generated appendForm and join write for an
// answer whose row's Answer column names the form.
type answerForm struct {
	// Fields are the fields the answer type must declare.
	Fields string
	// Specific is the hookSpecificOutput of the wire form, a format of
	// the event's constant ("" for none).
	Specific string
	// Block says the answer has Block and Reason, written as the
	// top-level decision and reason (see blockFields).
	Block bool
	// Join is the statement that joins n's field into a's ("" for none),
	// and Stop the expression of join's stop result ("" for false).
	Join, Stop string
	// Says is what the wire form holds, and Joins how a chain joins it,
	// for the methods' docs.
	Says, Joins string
}

// answerForms are the forms of the Answer column.
var answerForms = map[protocol.Answer]*answerForm{
	protocol.AnswerCommon: {
		Fields: "Common",
		Says:   "the common fields only", Joins: "the common fields only",
	},
	protocol.AnswerContext: {
		Fields:   "Common AdditionalContext",
		Specific: "contextOnly(Event%s, o.AdditionalContext)",
		Join:     "a.AdditionalContext = joinText(a.AdditionalContext, n.AdditionalContext)",
		Says:     "the common fields, and AdditionalContext in the hookSpecificOutput",
		Joins:    "contexts joined",
	},
	protocol.AnswerWatchPaths: {
		Fields:   "Common WatchPaths",
		Specific: "watchPaths(Event%s, o.WatchPaths)",
		Join:     "a.WatchPaths = unionPaths(a.WatchPaths, n.WatchPaths)",
		Says:     "the common fields, and WatchPaths in the hookSpecificOutput unless it is nil",
		Joins:    "the watch paths' union, in order",
	},
	protocol.AnswerFeedback: {
		Fields:   "Common Block Reason AdditionalContext",
		Block:    true,
		Specific: "contextOnly(Event%s, o.AdditionalContext)",
		Join:     "joinFeedback(&a.Block, &a.Reason, &a.AdditionalContext, n.Block, n.Reason, n.AdditionalContext)",
		Says:     "the common fields, a block as the top-level decision and reason, and AdditionalContext in the hookSpecificOutput",
		Joins:    "every handler runs, a block from any blocks, reasons and contexts joined",
	},
	protocol.AnswerGate: {
		Fields: "Common Block Reason",
		Block:  true,
		Stop:   "joinGate(&a.Block, &a.Reason, n.Block, n.Reason)",
		Says:   "the common fields, and a block as the top-level decision and reason",
		Joins:  "the first block wins and stops the chain",
	},
}

// checkAnswers reports an event whose row generates its answer's methods
// while the answer type's declaration holds other fields than they write.
func checkAnswers(events []protocol.Event, types []protocol.Type) error {
	fields := map[string]string{}
	for _, t := range types {
		var names []string
		for _, f := range t.Fields {
			names = append(names, cmp.Or(f.Name, f.Type))
		}
		fields[t.Name] = strings.Join(names, " ")
	}
	for _, e := range events {
		if e.Answer == protocol.AnswerOwn {
			continue
		}
		form, ok := answerForms[e.Answer]
		if !ok {
			return fmt.Errorf("gen: %s: unknown Answer %d", e.Name, e.Answer)
		}
		if got := fields[e.Name+"Output"]; got != form.Fields {
			return fmt.Errorf("gen: %s's row generates the methods of an answer with the fields %s, but %sOutput declares %q", e.Name, form.Fields, e.Name, got)
		}
	}
	return nil
}

var funcs = template.FuncMap{
	"claudeCode": func() string { return protocol.ClaudeCode },
	"article": func(s string) string {
		if strings.ContainsRune("AEIOU", rune(s[0])) {
			return "an"
		}
		return "a"
	},
	"blocking": func(es []protocol.Event) (names []string) {
		for _, e := range es {
			if e.CanBlock {
				names = append(names, e.Name)
			}
		}
		return names
	},
	"haltIgnored": func(es []protocol.Event) (names []string) {
		for _, e := range es {
			if e.HaltIgnored {
				names = append(names, e.Name)
			}
		}
		return names
	},
	// matcherGroups and blockGroups group the events that share a
	// matcher field or a block form, in table order, so that each value
	// is written once with every event it holds for.
	"matcherGroups": func(es []protocol.Event) []group {
		return groupBy(es, func(e protocol.Event) string { return e.Matcher })
	},
	"blockGroups": func(es []protocol.Event) []group {
		return groupBy(es, func(e protocol.Event) string { return blockFormName(e.Block) })
	},
	"quote":       func(s string) string { return fmt.Sprintf("%q", s) },
	"textContext": func(t protocol.Text) bool { return t == protocol.TextContext },
	"textNoJSON":  func(t protocol.Text) bool { return t == protocol.TextNoJSON },
	"deny":        func(b protocol.Block) bool { return b == protocol.BlockDeny },
	"answerForm":  func(a protocol.Answer) *answerForm { return answerForms[a] },
}

// blockFormName is the name of the root package's constant for the block
// form b.
func blockFormName(b protocol.Block) string {
	switch b {
	case protocol.BlockDecision:
		return "blockDecision"
	case protocol.BlockDeny:
		return "blockDeny"
	}
	return "blockNone"
}

// group is a value of the table and the events, in table order, that
// have it.
type group struct {
	Value string
	Names []string
}

// groupBy groups es by key, in the order each key first appears; events
// whose key is "" or "blockNone" (the functions' default) are left out.
func groupBy(es []protocol.Event, key func(protocol.Event) string) []group {
	var gs []group
	at := map[string]int{}
	for _, e := range es {
		k := key(e)
		if k == "" || k == "blockNone" {
			continue
		}
		i, ok := at[k]
		if !ok {
			i = len(gs)
			at[k] = i
			gs = append(gs, group{Value: k})
		}
		gs[i].Names = append(gs[i].Names, e.Name)
	}
	return gs
}

var facts = template.Must(template.New("events_gen.go").Funcs(funcs).Parse(`// Code generated by internal/protocol/gen from the protocol table; DO NOT EDIT.

package hook

// events are the names of the hook events of Claude Code {{claudeCode}},
// spelled as in hook_event_name, in the order of the Agent SDK's
// HOOK_EVENTS. Each event's file declares its constant.
var events = [...]string{
{{- range .}}
	Event{{.Name}},
{{- end}}
}

// eventNames returns the names of the {{len .}} hook events of Claude Code
// {{claudeCode}}, in the order of the Agent SDK's HOOK_EVENTS. The slice is new
// on every call.
func eventNames() []string { return append([]string(nil), events[:]...) }

// knownEvent reports whether name is one of the {{len .}} hook events of Claude
// Code {{claudeCode}}.
func knownEvent(name string) bool {
	switch name {
	case {{range $i, $e := .}}{{if $i}}, {{end}}Event{{$e.Name}}{{end}}:
		return true
	}
	return false
}

// canBlock reports whether exit code 2 blocks (or otherwise changes) the
// action behind the event name, as Claude Code {{claudeCode}} documents it (spec
// §3, "Exit 2 blocks?"). For the other events, exit 2 only shows stderr
// somewhere or is ignored.
func canBlock(name string) bool {
	switch name {
	case {{range $i, $n := blocking .}}{{if $i}}, {{end}}Event{{$n}}{{end}}:
		return true
	}
	return false
}

// matcherField names the input member each event's matcher is tested
// against, from the client's own table, or ""; FileChanged takes the base
// name of file_path.
func matcherField(event string) string {
	switch event {
{{- range matcherGroups .}}
	case {{range $i, $n := .Names}}{{if $i}}, {{end}}Event{{$n}}{{end}}:
		return {{quote .Value}}
{{- end}}
	}
	return ""
}

// honoursHalt reports whether Claude Code stops on "continue": false in
// an answer to the event name: it discards it on the observation-only
// events and ignores it on some others (see [Common]).
func honoursHalt(name string) bool {
	switch name {
	case {{range $i, $n := haltIgnored .}}{{if $i}}, {{end}}Event{{$n}}{{end}}:
		return false
	}
	return true
}

// blockFormOf returns the JSON block form of event.
func blockFormOf(event string) blockForm {
	switch event {
{{- range blockGroups .}}
	case {{range $i, $n := .Names}}{{if $i}}, {{end}}Event{{$n}}{{end}}:
		return {{.Value}}
{{- end}}
	}
	return blockNone
}
`))

var adapters = template.Must(template.New("adapters_gen.go").Funcs(funcs).Parse(`// Code generated by internal/protocol/gen from the protocol table; DO NOT EDIT.

package hook

import "context"

// answerType returns a nil answer of event's answer type (nil for an
// unknown event), for the answer methods that need no value.
func answerType(event string) Output {
	switch event {
{{- range .}}
	case Event{{.Name}}:
		return (*{{.Name}}Output)(nil)
{{- end}}
	}
	return nil
}
{{range .}}
// {{.Name}}Func adapts a function to a [Handler] that answers {{.Name}}
// events and ignores every other event (exit 0, no output). A nil answer
// writes nothing; [Mux.Handle] refuses it under another event's pattern.
type {{.Name}}Func func(ctx context.Context, e *{{.Name}}) (*{{.Name}}Output, error)

// ServeHook decodes {{article .Name}} {{.Name}} event and calls f.
func (f {{.Name}}Func) ServeHook(ctx context.Context, ev *Event) (Output, error) {
	return serveTyped(ctx, ev, Event{{.Name}}, f)
}

func ({{.Name}}Func) adapterEvent() string { return Event{{.Name}} }

// combine merges o into acc by [Chain]'s rules for {{.Name}} (see its join).
func (o *{{.Name}}Output) combine(acc Output) (Output, bool, error) {
	return combineAs(acc, o, (*{{.Name}}Output).join)
}

// appendAnswer refuses an event other than {{.Name}}, then validates the
// answer and appends its stdout form (see its appendForm).
func (o *{{.Name}}Output) appendAnswer(dst []byte, ev *Event) ([]byte, error) {
	if err := checkEvent(ev, Event{{.Name}}); err != nil {
		return dst, err
	}
	return o.appendForm(dst, ev)
}
{{- $f := answerForm .Answer}}
{{- if $f}}

// appendForm appends the answer:
// {{$f.Says}}.
func (o *{{.Name}}Output) appendForm(dst []byte, _ *Event) ([]byte, error) {
{{- if $f.Block}}
	decision, reason, err := blockFields(o.Block, o.Reason)
	if err != nil {
		return dst, err
	}
{{- end}}
	return appendWire(dst, answer{common: &o.Common{{if $f.Block}}, decision: decision, reason: reason{{end}}{{if $f.Specific}}, specific: {{printf $f.Specific .Name}}{{end}}})
}

// join merges n into a as [Chain] combines {{.Name}} answers:
// {{$f.Joins}}.
func (a *{{.Name}}Output) join(n *{{.Name}}Output) (stop bool, err error) {
	a.Common.join(n.Common)
{{- if $f.Join}}
	{{$f.Join}}
{{- end}}
	return {{or $f.Stop "false"}}, nil
}
{{- end}}
{{- if .Decisions}}

// refuses reports whether the answer refuses the action: a deny.
func (o *{{.Name}}Output) refuses() bool { return o.Decision == Deny }
{{- end}}
{{- if deny .Block}}

// denyAnswer returns the JSON form of a [Block] with reason: {{.Name}}'s
// block form is a permission decision.
func (*{{.Name}}Output) denyAnswer(reason string) Output {
	return &{{.Name}}Output{Decision: Deny, Reason: reason}
}
{{- end}}
{{- if .Feedback}}

// feedbackBlock returns the JSON form of a [Block] with reason: on
// {{.Name}} a block is feedback for Claude, and every handler of a chain
// runs.
func (*{{.Name}}Output) feedbackBlock(reason string) Output {
	return &{{.Name}}Output{Block: true, Reason: reason}
}
{{- end}}
{{- if textContext .Text}}

// plainText reports whether the answer is written as plain text.
func (o *{{.Name}}Output) plainText() bool { return o.Text != "" }

// textToContext moves a combined plain-text answer into
// additionalContext, so that a note can join it in the JSON fields.
func (o *{{.Name}}Output) textToContext() bool {
	o.AdditionalContext, o.Text = joinText(o.AdditionalContext, o.Text), ""
	return true
}

// jsonForm returns the JSON form of a valid plain-text answer, for an
// http hook: the text as additionalContext.
func (o *{{.Name}}Output) jsonForm(*Event) (Output, error) {
	return &{{.Name}}Output{AdditionalContext: trimText(o.Text)}, nil
}
{{- end}}
{{- if textNoJSON .Text}}

// plainText reports whether the answer is written as plain text.
func (o *{{.Name}}Output) plainText() bool { return o.Text != "" }

// textToContext reports false for a plain-text answer: {{.Name}} has no
// JSON field for the text, so a note cannot join it.
func (o *{{.Name}}Output) textToContext() bool { return o.Text == "" }

// jsonForm refuses a plain-text answer for an http hook: {{.Name}}'s JSON
// has no field for the text.
func (o *{{.Name}}Output) jsonForm(ev *Event) (Output, error) {
	return nil, noHTTPText(ev)
}
{{- end}}
{{end}}`))

package main

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/gohooks/hook/internal/protocol"
)

// checkNames reports every row of the table whose name constant is not
// declared as the event's file must declare it — EventFoo = "Foo", with
// the doc "EventFoo fires …", in the file that declares the input struct
// Foo — and every Event constant of the package that no row names.
func checkNames(events []protocol.Event, types []protocol.Type, consts []protocol.Const) error {
	fileOf := map[string]string{}
	for _, t := range types {
		fileOf[t.Name] = t.File
	}
	declared := map[string]protocol.Const{}
	for _, c := range consts {
		declared[c.Name] = c
	}
	var errs []error
	rows := map[string]bool{}
	for _, e := range events {
		name := "Event" + e.Name
		rows[name] = true
		file := fileOf[e.Name]
		if file == "" {
			errs = append(errs, fmt.Errorf("gen: %s: no file declares the input struct %s", e.Name, e.Name))
			continue
		}
		c, ok := declared[name]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("gen: %s: %s declares no constant %s: add\n\t// %s fires …\n\tconst %s = %q", e.Name, file, name, name, name, e.Name))
		case c.Value != e.Name:
			errs = append(errs, fmt.Errorf("gen: %s: %s: %s is %q; the row's hook_event_name is %q", e.Name, c.File, name, c.Value, e.Name))
		case c.File != file:
			errs = append(errs, fmt.Errorf("gen: %s: %s is declared in %s; it belongs next to the input struct %s, in %s", e.Name, name, c.File, e.Name, file))
		case len(c.Doc) == 0 || !strings.HasPrefix(c.Doc[0], name+" fires "):
			errs = append(errs, fmt.Errorf("gen: %s: %s: %s's doc does not say when it fires (%q): it starts %q", e.Name, c.File, name, strings.Join(c.Doc, " "), name+" fires "))
		}
	}
	for _, c := range consts {
		rest, ok := strings.CutPrefix(c.Name, "Event")
		if ok && rest != "" && unicode.IsUpper(rune(rest[0])) && !rows[c.Name] {
			errs = append(errs, fmt.Errorf("gen: %s: %s = %q names no row of the protocol table (internal/protocol/events.go)", c.File, c.Name, c.Value))
		}
	}
	return errors.Join(errs...)
}

package inputedit

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/gohooks/hook/internal/rawjson"
	"github.com/gohooks/hook/internal/wire"
)

// This file holds the engine behind hook.EditText: it finds the texts of
// a tool's result in its bytes and splices the ones an edit changed in
// place, so that every other byte is the original's.

// ErrNoTexts is the error of an object result whose texts are not known:
// it has neither a "content" array nor a structuredContent.
var ErrNoTexts = errors.New(`the result is an object with neither a "content" array of blocks nor a structuredContent (nor the text_result_for_llm of a GitHub Copilot CLI result), such as a built-in tool's result: which of its strings are texts depends on the tool, so change it with hook.Edit and its typed view (hook.BashResponse, hook.ReadResponse, …)`)

// textSplice is one text an edit changed: the span of its JSON string in
// the value, and the string that replaces it.
type textSplice struct {
	at, end int
	with    []byte
}

// textEditor finds the texts of one value and collects the splices.
type textEditor struct {
	base    []byte
	edit    func(string) (string, error)
	splices []textSplice
}

// EditTexts returns v, one valid JSON value without surrounding
// whitespace, with the texts that edit changed replaced (see
// hook.EditText for which strings are texts). When edit changes none, it
// returns v itself. An error of edit is returned as it is; the engine's
// own errors need the caller's prefix.
func EditTexts(v []byte, edit func(string) (string, error)) ([]byte, error) {
	if len(v) == 0 {
		return v, nil
	}
	e := &textEditor{base: v, edit: edit}
	var err error
	switch v[0] {
	case '"':
		err = e.text(v)
	case '[':
		err = e.blocks(v)
	case '{':
		err = e.result(v)
	}
	if err != nil || len(e.splices) == 0 {
		return v, err
	}
	n := len(v)
	for _, s := range e.splices {
		n += len(s.with) - (s.end - s.at)
	}
	out := make([]byte, 0, n)
	last := 0
	for _, s := range e.splices {
		out = append(out, v[last:s.at]...)
		out = append(out, s.with...)
		last = s.end
	}
	return append(out, v[last:]...), nil
}

// result finds the texts of an object result: its content blocks and
// its structured content, or the text for the model of a GitHub Copilot
// CLI result ({"result_type":…,"text_result_for_llm":…}, whatever the
// tool).
func (e *textEditor) result(v []byte) error {
	ms, err := rawjson.MembersTrusted(v)
	if err != nil {
		return err
	}
	content, hasContent := rawjson.Find(ms, "content")
	hasContent = hasContent && content.Value[0] == '['
	structured, hasStructured := rawjson.Find(ms, "structuredContent")
	hasStructured = hasStructured && structured.Value[0] != 'n'
	llm, hasLLM := rawjson.Find(ms, "text_result_for_llm")
	hasLLM = hasLLM && llm.Value[0] == '"'
	if !hasContent && !hasStructured && !hasLLM {
		return ErrNoTexts
	}
	// The members in their order, so that the splices stay sorted.
	for _, m := range ms {
		switch {
		case hasContent && m.Key == "content":
			err = e.blocks(m.Value)
		case hasStructured && m.Key == "structuredContent":
			err = e.strings(m.Value)
		case hasLLM && m.Key == "text_result_for_llm":
			err = e.text(m.Value)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// blocks finds the texts of an array of content blocks: the text of a
// text block and of an embedded text resource.
func (e *textEditor) blocks(v []byte) error {
	elems, ok := rawjson.ElementsTrusted(v)
	if !ok {
		return errors.New("the content blocks are not an array")
	}
	for _, b := range elems {
		if b[0] != '{' {
			continue
		}
		ms, err := rawjson.MembersTrusted(b)
		if err != nil {
			return err
		}
		typ, ok := rawjson.Find(ms, "type")
		if !ok || typ.Value[0] != '"' {
			continue
		}
		switch t, _ := wire.Unquote(typ.Value); t {
		case "text":
			if m, ok := rawjson.Find(ms, "text"); ok && m.Value[0] == '"' {
				if err := e.text(m.Value); err != nil {
					return err
				}
			}
		case "resource":
			r, ok := rawjson.Find(ms, "resource")
			if !ok || r.Value[0] != '{' {
				continue
			}
			rms, err := rawjson.MembersTrusted(r.Value)
			if err != nil {
				return err
			}
			if m, ok := rawjson.Find(rms, "text"); ok && m.Value[0] == '"' {
				if err := e.text(m.Value); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// strings finds every string value in v, at any depth.
func (e *textEditor) strings(v []byte) error {
	switch v[0] {
	case '"':
		return e.text(v)
	case '[':
		elems, _ := rawjson.ElementsTrusted(v)
		for _, x := range elems {
			if err := e.strings(x); err != nil {
				return err
			}
		}
	case '{':
		ms, err := rawjson.MembersTrusted(v)
		if err != nil {
			return err
		}
		for _, m := range ms {
			if err := e.strings(m.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

// text gives the JSON string s, a slice of the value, to the edit, and
// notes a splice when the edit changed it.
func (e *textEditor) text(s []byte) error {
	old, _ := wire.Unquote(s)
	changed, err := e.edit(old)
	if err != nil {
		return err
	}
	if changed == old {
		return nil
	}
	with, err := wire.Marshal(changed)
	if err != nil {
		return fmt.Errorf("encoding the edited text: %w", err)
	}
	at := textOffset(e.base, s)
	e.splices = append(e.splices, textSplice{at: at, end: at + len(s), with: with})
	return nil
}

// textOffset returns where sub, a slice of base's bytes, starts in base.
func textOffset(base, sub []byte) int {
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(sub))) - uintptr(unsafe.Pointer(unsafe.SliceData(base))))
}

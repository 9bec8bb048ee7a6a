package verdict

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/gohooks/hook/internal/jsonopts"
	"github.com/gohooks/hook/internal/rawjson"
)

// The problems [Compare] reports.
const (
	// Lost: the member is missing; Claude Code calls the tool without it.
	Lost = "member lost"
	// Changed: the member holds another JavaScript value.
	Changed = "member changed"
	// Respelled: the member holds the same JavaScript value written with
	// other bytes (\u00e9 for é, 2.5 for 2.50, members reordered); Claude
	// Code cannot tell the difference.
	Respelled = "member respelled"
)

// Diff is one member of a tool input that an updatedInput does not keep.
type Diff struct {
	// Pointer is the member's JSON pointer in the tool input, e.g.
	// "/room" or "/todos/1/id".
	Pointer string
	// Problem is [Lost], [Changed] or [Respelled].
	Problem string
	// In and Out are the value before and after (Out is nil when lost).
	In, Out []byte
}

// Compare compares out, an updatedInput, with in, the tool input the hook
// received, as Claude Code reads both, skipping the top-level members
// named in skip. Members of out that in lacks are the hook's additions and
// are not reported. Where both sides of a member are objects, or arrays
// of one length, the difference is located at the deepest member that
// differs. Diffs come in the order of in. Compare returns an error when in
// or out is not a JSON object without duplicate names.
func Compare(in, out []byte, skip []string) ([]Diff, error) {
	ims, err := rawjson.Members(in)
	if err != nil {
		return nil, fmt.Errorf("the input: %w", err)
	}
	oms, err := rawjson.Members(out)
	if err != nil {
		return nil, fmt.Errorf("the output: %w", err)
	}
	var ds []Diff
	for _, im := range ims {
		if slices.Contains(skip, im.Key) {
			continue
		}
		ptr := "/" + rawjson.PointerToken(im.Key)
		om, ok := rawjson.Find(oms, im.Key)
		if !ok {
			ds = append(ds, Diff{Pointer: ptr, Problem: Lost, In: im.Value})
			continue
		}
		ds = diffValue(ds, ptr, im.Value, om.Value, false)
	}
	return ds, nil
}

// diffValue appends the differences between the values a and b at ptr.
// Arrays of one length are compared element by element; with align,
// arrays of other lengths are aligned too (see diffAligned), else such
// an array changed as a whole.
func diffValue(ds []Diff, ptr string, a, b []byte, align bool) []Diff {
	if SameBytes(a, b) {
		return ds
	}
	if SameValue(a, b) {
		return append(ds, Diff{Pointer: ptr, Problem: Respelled, In: a, Out: b})
	}
	n := len(ds)
	switch ka, kb := jsontext.Value(a).Kind(), jsontext.Value(b).Kind(); {
	case ka == '{' && kb == '{':
		ams, err1 := rawjson.Members(a)
		bms, err2 := rawjson.Members(b)
		if err1 != nil || err2 != nil {
			break
		}
		for _, am := range ams {
			p := ptr + "/" + rawjson.PointerToken(am.Key)
			bm, ok := rawjson.Find(bms, am.Key)
			if !ok {
				ds = append(ds, Diff{Pointer: p, Problem: Lost, In: am.Value})
				continue
			}
			ds = diffValue(ds, p, am.Value, bm.Value, align)
		}
	case ka == '[' && kb == '[':
		ae, be := elements(a), elements(b)
		if len(ae) == len(be) {
			for i := range ae {
				ds = diffValue(ds, fmt.Sprintf("%s/%d", ptr, i), ae[i], be[i], align)
			}
			break
		}
		if !align {
			break
		}
		var lost bool
		if ds, lost = diffAligned(ds, ptr, ae, be); !lost && len(ds) == n {
			// Every element kept: b only added some.
			return ds
		}
	}
	// Only respellings below, or nothing located (members added, an
	// array grown): the value as a whole changed.
	if !slices.ContainsFunc(ds[n:], func(d Diff) bool { return d.Problem != Respelled }) {
		ds = append(ds[:n], Diff{Pointer: ptr, Problem: Changed, In: a, Out: b})
	}
	return ds
}

// elements splits the JSON array v into its elements, as slices of v.
func elements(v []byte) [][]byte {
	dec := jsontext.NewDecoder(bytes.NewReader(v), jsonopts.Read())
	if _, err := dec.ReadToken(); err != nil {
		return nil
	}
	var out [][]byte
	for dec.PeekKind() != ']' {
		e, err := dec.ReadValue()
		if err != nil {
			return nil
		}
		end := dec.InputOffset()
		out = append(out, v[end-int64(len(e)):end])
	}
	return out
}

// SameBytes reports whether the JSON values a and b are the same bytes
// once whitespace between tokens is dropped.
func SameBytes(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	ca, cb := jsontext.Value(bytes.Clone(a)), jsontext.Value(bytes.Clone(b))
	opts := jsonopts.Read()
	if ca.Compact(opts) != nil || cb.Compact(opts) != nil {
		return false
	}
	return bytes.Equal(ca, cb)
}

// Run is one run of a hook in a property run, as [Constants] needs it:
// the tool input it was given and the updatedInput it answered (nil when
// it answered none, or when Claude Code would not act on it).
type Run struct {
	In, Out []byte
}

// Constant is a tool_input member that a hook sets to one value whatever
// the model sent: the seed bug's effect when the hook did not mean it (the
// model's room replaced by "lobby"), a member of the hook's own when it
// did (a fingerprint it computes, a flag it forces).
type Constant struct {
	// Name is the member's name.
	Name string
	// Value is the value every answer gave it, as the first one wrote it.
	Value []byte
	// Inputs counts the different values (as JavaScript reads them) the
	// inputs held: at least two.
	Inputs int
}

// Constants returns the tool_input members that a hook sets to one value
// whatever the model sent, given every run of one payload: in every run
// whose updatedInput holds the member, the member has one and the same
// value as JavaScript reads it, while the inputs of those runs held at
// least two different values. Nothing tells such a member from one the
// hook owns but the author's word, so a property run reports it unless
// it was declared (hooktest.Options.Changes, hookcheck -changed). A member
// whose input never varied is not in the list: a change there is
// reported as one. The members come in the order they first appear in
// the inputs.
func Constants(runs []Run) []Constant {
	type seen struct {
		out    []byte
		varies bool
		ins    [][]byte
	}
	m := map[string]*seen{}
	var order []string
	for _, r := range runs {
		if r.Out == nil {
			continue
		}
		ims, err1 := rawjson.Members(r.In)
		oms, err2 := rawjson.Members(r.Out)
		if err1 != nil || err2 != nil {
			continue
		}
		for _, im := range ims {
			om, ok := rawjson.Find(oms, im.Key)
			if !ok {
				continue
			}
			s := m[im.Key]
			if s == nil {
				s = &seen{out: om.Value}
				m[im.Key] = s
				order = append(order, im.Key)
			}
			s.varies = s.varies || !SameValue(s.out, om.Value)
			if !slices.ContainsFunc(s.ins, func(v []byte) bool { return SameValue(v, im.Value) }) {
				s.ins = append(s.ins, im.Value)
			}
		}
	}
	var cs []Constant
	for _, k := range order {
		if s := m[k]; !s.varies && len(s.ins) > 1 {
			cs = append(cs, Constant{Name: k, Value: s.out, Inputs: len(s.ins)})
		}
	}
	return cs
}

// FindConstant returns the Constant of cs named name.
func FindConstant(cs []Constant, name string) (Constant, bool) {
	for _, c := range cs {
		if c.Name == name {
			return c, true
		}
	}
	return Constant{}, false
}

// Counts sums up what a hook did in the runs of a property run.
type Counts struct {
	// Answered counts the runs in which the hook did something Claude
	// Code acts on: it printed on stdout, or exited with a code other
	// than 0. Silent counts the others; a run with no answered case
	// tested nothing.
	Answered, Silent int
	// Updated counts the answers with an updatedInput (or
	// updatedToolOutput) Claude Code acts on (not with exit code 2) that
	// changes the value it replaces; Blocked the runs that blocked or
	// denied: exit code 2, or a deny decision.
	Updated, Blocked int
	// NoOps counts the answers whose updatedInput (or updatedToolOutput)
	// Claude Code acts on but holds the value it replaces
	// ([SameUpdate]): they are not in Updated.
	NoOps int
	// FailedOpen counts the runs after which the agent goes on with the
	// call as if there were no hook: a kill or a timeout, an exit code
	// other than 0 and 2, or an answer it cannot read or rejects. They
	// are among Answered (or, for a run that never started, in no other
	// count).
	FailedOpen int
}

// Add counts one run: its exit code, whether stdout held more than white
// space, the kind of update the answer carried (see [Rewrite]), whether
// it was a deny decision, and whether it failed open (see [FailsOpen]).
func (c *Counts) Add(code int, printed bool, update Update, denied, open bool) {
	if open {
		c.FailedOpen++
	}
	if code == 0 && !printed {
		c.Silent++
		return
	}
	c.Answered++
	if code != 2 {
		switch update {
		case RealUpdate:
			c.Updated++
		case SameUpdate:
			c.NoOps++
		}
	}
	if code == 2 || (code == 0 && denied) {
		c.Blocked++
	}
}

// FailsOpen reports whether the agent goes on with the call as if there
// were no hook after a run that ended with code (negative for a kill or
// a timeout), given whether its answer on stdout was one the agent cannot
// read or rejects (ignored): every exit code but 0 and 2 is a
// non-blocking error, and an answer ignored is no answer. Exit code 2
// blocks, whatever stdout holds.
func FailsOpen(code int, ignored bool) bool {
	return code != 0 && code != 2 || code == 0 && ignored
}

// InStrictTier reports whether a finding of a run on a tricky value Claude
// Code never sends belongs to the strict tier, which fails only on
// request: held is the JSON pointer of the tool_input member that holds
// the value; member says whether the finding concerns a tool_input member
// (problem, at the pointer ptr in the tool input) rather than the run as a
// whole (stdout, the exit code, …). What concerns the run as a whole, and
// a change at or below held, depend on the value: strict tier. A member
// lost, or changed elsewhere, does not: a failure like any other.
func InStrictTier(member bool, problem, ptr, held string) bool {
	if !member {
		return true
	}
	return problem != Lost && Within(ptr, held)
}

// Within reports whether the JSON pointer p is top or points below it.
func Within(p, top string) bool { return p == top || strings.HasPrefix(p, top+"/") }

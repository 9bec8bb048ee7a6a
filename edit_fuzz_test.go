package hook

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/rawjson"
)

// editViews are the typed views that FuzzTypedEdit edits.
var editViews = []any{
	BashInput{}, WriteInput{}, EditInput{}, ReadInput{}, GlobInput{}, GrepInput{},
	WebFetchInput{}, WebSearchInput{}, AgentInput{}, NotebookEditInput{}, TodoWriteInput{},
	ExitPlanModeInput{}, AskUserQuestionInput{}, SkillInput{}, TaskCreateInput{},
	TaskUpdateInput{}, TaskGetInput{}, TaskStopInput{}, CronCreateInput{}, CronDeleteInput{},
	EnterWorktreeInput{}, ExitWorktreeInput{}, ListMcpResourcesInput{}, ReadMcpResourceInput{},
	MonitorInput{}, ScheduleWakeupInput{}, PushNotificationInput{},
	BashResponse{}, WriteResponse{}, EditResponse{}, ReadResponse{}, GlobResponse{},
	GrepResponse{}, WebFetchResponse{}, WebSearchResponse{}, AgentResponse{},
	NotebookEditResponse{}, TodoWriteResponse{}, ExitPlanModeResponse{},
}

// Tricky spellings that a view would write differently: each must keep
// its bytes wherever the edit did not change it.
var (
	fuzzStrings = []string{`"plain"`, `"caf\u00e9"`, `"caf\u00E9"`, `"\ud800"`, `"a\/b"`, `"tab\there"`, `"é"`, `""`, `"\ud83d\ude00"`, `"q\"uote"`}
	fuzzNumbers = []string{`1`, `2.50`, `1.2e2`, `120.0`, `-0`, `0`, `12345678901234567890`, `7`}
	fuzzNames   = []string{`"id"`, `"x\u0079"`, `"future"`, `"\ud800"`, `"n"`, `"é"`}
)

// genValue writes random JSON for a value of type t: known members with
// values of their type (in tricky spellings) and unknown members at
// every object level.
func genValue(r *rand.Rand, t reflect.Type, depth int) string {
	if t == reflect.TypeFor[jsontext.Value]() || t.Kind() == reflect.Interface {
		return genAny(r, depth)
	}
	switch t.Kind() {
	case reflect.Pointer:
		return genValue(r, t.Elem(), depth)
	case reflect.String:
		return fuzzStrings[r.Intn(len(fuzzStrings))]
	case reflect.Bool:
		return []string{"true", "false"}[r.Intn(2)]
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64, reflect.Float32:
		return fuzzNumbers[r.Intn(len(fuzzNumbers))]
	case reflect.Slice:
		n := r.Intn(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = genValue(r, t.Elem(), depth+1)
		}
		return "[" + strings.Join(parts, ",") + "]"
	case reflect.Map:
		var parts []string
		used := map[string]bool{}
		for range r.Intn(3) {
			k := fuzzStrings[r.Intn(len(fuzzStrings))]
			if used[k] {
				continue
			}
			used[k] = true
			parts = append(parts, k+":"+genValue(r, t.Elem(), depth+1))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case reflect.Struct:
		var parts []string
		used := map[string]bool{}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() || r.Intn(5) == 0 {
				continue
			}
			if name == "" {
				name = f.Name
			}
			used[name] = true
			parts = append(parts, fmt.Sprintf("%q:%s", name, genValue(r, f.Type, depth+1)))
		}
		// Unknown members, at random places.
		for range r.Intn(3) {
			n := fuzzNames[r.Intn(len(fuzzNames))]
			key := string(rawjson.AppendExactUnquote(nil, []byte(n)))
			if used[key] {
				continue
			}
			used[key] = true
			at := r.Intn(len(parts) + 1)
			parts = append(parts[:at], append([]string{n + ":" + genAny(r, depth+1)}, parts[at:]...)...)
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return "null"
}

// genAny writes random JSON of any kind.
func genAny(r *rand.Rand, depth int) string {
	switch k := r.Intn(6); {
	case k == 0 && depth < 6:
		return `{"k":` + genAny(r, depth+1) + `,"\ud800":` + fuzzNumbers[r.Intn(len(fuzzNumbers))] + `}`
	case k == 1 && depth < 6:
		return `[` + genAny(r, depth+1) + `,` + fuzzStrings[r.Intn(len(fuzzStrings))] + `]`
	case k == 2:
		return fuzzNumbers[r.Intn(len(fuzzNumbers))]
	case k == 3:
		return "null"
	}
	return fuzzStrings[r.Intn(len(fuzzStrings))]
}

// leaf is a settable scalar inside a decoded view, with its JSON pointer.
type leaf struct {
	ptr string
	v   reflect.Value
}

// leaves lists the string, integer and boolean fields of v, at every
// depth, by JSON pointer.
func leaves(v reflect.Value, ptr string, out *[]leaf) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			leaves(v.Elem(), ptr, out)
		}
	case reflect.String, reflect.Bool, reflect.Int64, reflect.Int:
		*out = append(*out, leaf{ptr, v})
	case reflect.Slice:
		if v.Type() == reflect.TypeFor[jsontext.Value]() {
			return
		}
		for i := range v.Len() {
			leaves(v.Index(i), fmt.Sprintf("%s/%d", ptr, i), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			leaves(v.Field(i), ptr+"/"+rawjson.PointerToken(name), out)
		}
	}
}

// FuzzTypedEdit decodes random nested JSON into each view, changes one
// field at some depth, and checks that the update holds the change and
// that every other member, at every depth, kept its bytes and its place.
func FuzzTypedEdit(f *testing.F) {
	for i := range len(editViews) {
		f.Add(int64(i), uint8(i), uint16(i*7))
	}
	f.Fuzz(func(t *testing.T, seed int64, which uint8, pick uint16) { fuzzEdit(t, seed, which, pick) })
}

// TestTypedEditExercises runs the fuzz body on many seeds and checks that
// most of them reach the checks (an edit was made and verified), so that
// the fuzz target cannot pass by skipping.
func TestTypedEditExercises(t *testing.T) {
	checked := 0
	for i := range 400 {
		if fuzzEdit(t, int64(i), uint8(i), uint16(i*31)) {
			checked++
		}
	}
	require.Greater(t, checked, 300, "edits checked out of 400")
}

// fuzzEdit is FuzzTypedEdit's body; it reports whether it made and checked
// an edit.
func fuzzEdit(t *testing.T, seed int64, which uint8, pick uint16) bool {
	{
		r := rand.New(rand.NewSource(seed))
		typ := reflect.TypeOf(editViews[int(which)%len(editViews)])
		in := genValue(r, typ, 0)
		if ok, _ := rawjson.Valid([]byte(in)); !ok {
			return false // a duplicate name the generator made: not an input
		}
		v := reflect.New(typ)
		if err := decodeInto(jsontext.Value(in), v.Interface()); err != nil {
			return false // the view refuses it; nothing to edit
		}
		var ls []leaf
		leaves(v.Elem(), "", &ls)
		if len(ls) == 0 {
			return false
		}
		l := ls[int(pick)%len(ls)]
		switch l.v.Kind() {
		case reflect.String:
			l.v.SetString(l.v.String() + "!")
		case reflect.Bool:
			l.v.SetBool(!l.v.Bool())
		default:
			l.v.SetInt(l.v.Int() + 1)
		}
		out, err := Update(jsontext.Value(in), v.Interface())
		require.NoError(t, err, "Update of %s at %s", in, l.ptr)
		require.True(t, validOut(out), "invalid update %s", out)
		// The update reads back as the edited view.
		back := reflect.New(typ)
		require.NoError(t, decodeInto(out, back.Interface()))
		require.Equal(t, v.Elem().Interface(), back.Elem().Interface(), "in %s\nout %s", in, out)
		// Every member off the changed path kept its bytes and place.
		keptBytes(t, []byte(in), out, "", l.ptr)
		return true
	}
}

// decodeInto decodes raw into v as the library's views decode.
func decodeInto(raw jsontext.Value, v any) error { return unmarshal(raw, v) }

func validOut(b []byte) bool { ok, _ := rawjson.Valid(b); return ok }

// keptBytes checks that in and out agree everywhere except at the JSON
// pointer changed: every value not on its path has the same bytes, and
// objects and arrays on its path have the same members in the same
// order.
func keptBytes(t *testing.T, in, out []byte, ptr, changed string) {
	t.Helper()
	if ptr == changed {
		return
	}
	if !strings.HasPrefix(changed, ptr+"/") {
		require.Equal(t, string(in), string(out), "%s changed (the edit was at %s)", ptr, changed)
		return
	}
	in, out = bytes.TrimSpace(in), bytes.TrimSpace(out)
	switch in[0] {
	case '{':
		ims, err := rawjson.Members(in)
		require.NoError(t, err)
		oms, err := rawjson.Members(out)
		require.NoError(t, err)
		// The changed member may be new (an absent field set).
		if len(oms) == len(ims)+1 {
			oms = oms[:len(ims)]
		}
		require.Equal(t, len(ims), len(oms), "%s: member count", ptr)
		for i := range ims {
			require.Equal(t, string(ims[i].Name), string(oms[i].Name), "%s: member %d", ptr, i)
			keptBytes(t, ims[i].Value, oms[i].Value, ptr+"/"+rawjson.PointerToken(ims[i].Key), changed)
		}
	case '[':
		ies, _ := rawjson.ElementsTrusted(in)
		oes, _ := rawjson.ElementsTrusted(out)
		require.Equal(t, len(ies), len(oes), "%s: element count", ptr)
		for i := range ies {
			keptBytes(t, ies[i], oes[i], fmt.Sprintf("%s/%d", ptr, i), changed)
		}
	default:
		require.Equal(t, string(in), string(out), "%s", ptr)
	}
}

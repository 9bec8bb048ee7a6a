package hook

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/protocol"
	"github.com/gohooks/hook/internal/sdkdecl"
	"github.com/gohooks/hook/internal/wire"
)

// The drift check compares the library with the Agent SDK's declarations
// (sdk.d.ts and sdk-tools.d.ts of @anthropic-ai/claude-agent-sdk): the
// hook events (HOOK_EVENTS), each event's input members (FooHookInput),
// the common answer members (SyncHookJSONOutput, AsyncHookJSONOutput),
// each hookSpecificOutput variant's members, and each built-in tool
// input's members, at every depth where both sides are objects. A member
// missing on either side is drift, unless driftAllowed lists it. The
// tables that pair library and SDK types are in drift_tables_test.go.
// Each event's input members are also checked against its Go declaration
// as internal/protocol reads it (protocol.ReadTypes, which the generator
// uses too), so that what the tools read from the source is what the
// compiled struct decodes.
//
// By default it runs against verifiedSDK and fails on drift. With
// HOOK_SDK_VERSION set to another version or a tag (latest), it prints
// the drift as a report and passes:
//
//	HOOK_SDK_VERSION=latest go test -run TestSDKDrift -v .

// drift is one member (or event, or type) that one side lacks.
type drift struct {
	// where says what was compared: "events", "input PreToolUse",
	// "input PreToolUse.mcp_server", "output", "hookSpecificOutput Stop",
	// "tool BashInput", "tool inputs".
	where string
	// member is the missing event, member or type name.
	member string
	// lacks is the side it is missing on: "library" or "SDK".
	lacks string
}

func (d drift) String() string {
	return fmt.Sprintf("%s: %s lacks %s", d.where, d.lacks, strconv.Quote(d.member))
}

// driftCheck collects the drift between the library and one SDK.
type driftCheck struct {
	sdk, tools *sdkdecl.File
	// schema is the package's struct declarations by name, as
	// protocol.ReadTypes reads them: Go is the schema.
	schema map[string]protocol.Type
	found  []drift
	errs   []string
	// compared counts the members found on both sides, and objects the
	// struct and object type pairs compared.
	compared, objects int
}

func (c *driftCheck) lacks(side, where, member string) {
	c.found = append(c.found, drift{where: where, member: member, lacks: side})
}

func (c *driftCheck) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Sprintf(format, args...))
}

// shape returns the members of the object type declared as name in f.
func (c *driftCheck) shape(f *sdkdecl.File, name string) (sdkdecl.Shape, bool) {
	typ, err := f.Lookup(name)
	if err != nil {
		c.errorf("%v", err)
		return sdkdecl.Shape{}, false
	}
	s, ok, err := f.ObjectShape(typ)
	if err != nil {
		c.errorf("%s: %v", name, err)
		return sdkdecl.Shape{}, false
	}
	if !ok {
		c.errorf("%s is not an object type", name)
	}
	return s, ok
}

// checkDrift compares the library with the SDK declarations sdkSrc (the
// text of sdk.d.ts) and toolsSrc (sdk-tools.d.ts).
func checkDrift(sdkSrc, toolsSrc string) (*driftCheck, error) {
	sdk, err := sdkdecl.Parse(sdkSrc)
	if err != nil {
		return nil, fmt.Errorf("sdk.d.ts: %w", err)
	}
	tools, err := sdkdecl.Parse(toolsSrc)
	if err != nil {
		return nil, fmt.Errorf("sdk-tools.d.ts: %w", err)
	}
	lib, err := libraryEvents()
	if err != nil {
		return nil, err
	}
	types, err := protocol.ReadTypes(".")
	if err != nil {
		return nil, err
	}
	c := &driftCheck{sdk: sdk, tools: tools, schema: map[string]protocol.Type{}}
	for _, t := range types {
		c.schema[t.Name] = t
	}
	for _, e := range lib {
		c.schemaInput(e)
	}
	c.events(lib)
	c.outputs(lib)
	c.toolInputs()
	sort.SliceStable(c.found, func(i, j int) bool { return c.found[i].String() < c.found[j].String() })
	return c, nil
}

// events compares the event lists and each common event's input.
func (c *driftCheck) events(lib []string) {
	typ, err := c.sdk.Lookup("HOOK_EVENTS")
	if err != nil {
		c.errorf("%v", err)
		return
	}
	sdkEvents, err := c.sdk.StringLiterals(typ)
	if err != nil {
		c.errorf("HOOK_EVENTS: %v", err)
		return
	}
	for _, e := range sdkEvents {
		if !slices.Contains(lib, e) {
			c.lacks("library", "events", e)
			// Say what its input holds beyond the common fields.
			if name := e + "HookInput"; c.sdk.Has(name) {
				if s, ok := c.shape(c.sdk, name); ok {
					c.compare(c.sdk, "input "+e, s, reflect.TypeFor[Event](), 0)
				}
			}
		}
	}
	for _, e := range lib {
		if !slices.Contains(sdkEvents, e) {
			c.lacks("SDK", "events", e)
			continue
		}
		name := e + "HookInput"
		if !c.sdk.Has(name) {
			c.lacks("SDK", "inputs", name)
			continue
		}
		if s, ok := c.shape(c.sdk, name); ok {
			c.checkEventName(name, s, "hook_event_name", e)
			c.compare(c.sdk, "input "+e, s, eventInputs[e], 0)
		}
	}
}

// schemaInput reports an event whose input members in its declaration as
// read from the source (the embedded Event's and each field's json
// member) are not those its compiled struct reads: the generator and the
// tests that read the declarations see the struct only while they agree.
func (c *driftCheck) schemaInput(event string) {
	typ, ok := c.schema[event]
	if !ok {
		c.errorf("the source declares no input type %s", event)
		return
	}
	var inSchema []string
	for _, f := range typ.Fields {
		switch {
		case f.Name == "" && f.Type == "Event":
			for _, fl := range wire.Fields(reflect.TypeFor[Event]()) {
				inSchema = append(inSchema, fl.Name)
			}
		case f.Name == "":
			c.errorf("the declaration of %s embeds %s, not Event", event, f.Type)
		case f.Member() != "":
			inSchema = append(inSchema, f.Member())
		}
	}
	var inStruct []string
	for _, fl := range wire.Fields(eventInputs[event]) {
		inStruct = append(inStruct, fl.Name)
	}
	slices.Sort(inSchema)
	slices.Sort(inStruct)
	if !slices.Equal(inSchema, inStruct) {
		c.errorf("input %s: the declaration's members %v are not its compiled struct's %v (protocol.ReadTypes misreads it)", event, inSchema, inStruct)
	}
}

// checkEventName reports an SDK type named after one event whose member
// (hook_event_name, hookEventName) names another, which would pair the
// wrong types.
func (c *driftCheck) checkEventName(typeName string, s sdkdecl.Shape, member, event string) {
	m, ok := s.Member(member)
	if !ok {
		c.errorf("%s has no %s", typeName, member)
		return
	}
	got, err := c.sdk.StringLiterals(m.Type)
	if err != nil || len(got) != 1 || got[0] != event {
		c.errorf("%s.%s is %v, not the one string literal %q (%v)", typeName, member, got, event, err)
	}
}

// outputs compares the common answer members and the hookSpecificOutput
// variants.
func (c *driftCheck) outputs(lib []string) {
	if s, ok := c.shape(c.sdk, "SyncHookJSONOutput"); ok {
		c.compare(c.sdk, "output", s, reflect.TypeFor[wireAnswer](), 0)
		c.variants(lib, s)
	}
	if s, ok := c.shape(c.sdk, "AsyncHookJSONOutput"); ok {
		c.compare(c.sdk, "async output", s, reflect.TypeFor[asyncWire](), 0)
	}
}

// variants compares the hookSpecificOutput variants of sync (the SDK's
// SyncHookJSONOutput) with eventSpecific.
func (c *driftCheck) variants(lib []string, sync sdkdecl.Shape) {
	m, ok := sync.Member("hookSpecificOutput")
	if !ok {
		return // compare reported it
	}
	parts := []sdkdecl.Type{m.Type}
	if u, ok := m.Type.(*sdkdecl.Union); ok {
		parts = u.Types
	}
	sdkVariants := map[string]sdkdecl.Shape{}
	for _, p := range parts {
		r, ok := p.(*sdkdecl.Ref)
		if !ok {
			c.errorf("a hookSpecificOutput variant is no named type")
			continue
		}
		s, ok, err := c.sdk.ObjectShape(p)
		if err != nil || !ok {
			c.errorf("hookSpecificOutput variant %s is no object type (%v)", r.Name, err)
			continue
		}
		name, ok := s.Member("hookEventName")
		if !ok {
			c.errorf("%s has no hookEventName", r.Name)
			continue
		}
		ev, err := c.sdk.StringLiterals(name.Type)
		if err != nil || len(ev) != 1 {
			c.errorf("%s's hookEventName is not one string literal: %v (%v)", r.Name, ev, err)
			continue
		}
		c.checkEventName(r.Name, s, "hookEventName", strings.TrimSuffix(r.Name, "HookSpecificOutput"))
		sdkVariants[ev[0]] = s
	}
	events := slices.Clone(lib)
	for e := range sdkVariants {
		if !slices.Contains(events, e) {
			events = append(events, e)
		}
	}
	for _, e := range events {
		s, inSDK := sdkVariants[e]
		t, inLib := eventSpecific[e]
		switch {
		case inSDK && inLib:
			c.compare(c.sdk, "hookSpecificOutput "+e, s, t, 0)
		case inSDK:
			c.lacks("library", "hookSpecificOutput variants", e)
			c.compare(c.sdk, "hookSpecificOutput "+e, s, reflect.TypeFor[bareSpecific](), 0)
		case inLib:
			c.lacks("SDK", "hookSpecificOutput variants", e)
		}
	}
}

// bareSpecific is a hookSpecificOutput with no member of its own, to list
// the members of a variant the library lacks.
type bareSpecific struct {
	HookEventName string `json:"hookEventName"`
}

// toolInputs compares the tool inputs of sdk-tools.d.ts with the views.
func (c *driftCheck) toolInputs() {
	typ, err := c.tools.Lookup("ToolInputSchemas")
	if err != nil {
		c.errorf("%v", err)
		return
	}
	u, ok := typ.(*sdkdecl.Union)
	if !ok {
		c.errorf("ToolInputSchemas is not a union")
		return
	}
	var sdkInputs []string
	for _, p := range u.Types {
		if r, ok := p.(*sdkdecl.Ref); ok && strings.HasSuffix(r.Name, "Input") {
			sdkInputs = append(sdkInputs, r.Name)
		}
	}
	for _, name := range sdkInputs {
		views, mapped := toolViews[name]
		if !mapped {
			if _, deliberate := sdkToolsWithoutView[name]; !deliberate {
				c.lacks("library", "tool inputs", name)
			}
			continue
		}
		s, ok := c.shape(c.tools, name)
		if !ok {
			continue
		}
		for _, v := range views {
			c.compare(c.tools, "tool "+v.Name(), s, v, 0)
		}
	}
	for name := range toolViews {
		if !slices.Contains(sdkInputs, name) {
			c.lacks("SDK", "tool inputs", name)
		}
	}
}

// maxCompareDepth bounds the nesting compare follows.
const maxCompareDepth = 8

// compare reports the members that s (declared in f) and the Go struct t
// do not share, then compares the members that are objects (or arrays of
// objects) on both sides.
func (c *driftCheck) compare(f *sdkdecl.File, where string, s sdkdecl.Shape, t reflect.Type, depth int) {
	c.objects++
	fields := wire.Fields(t)
	goNames := make([]string, len(fields))
	for i, fl := range fields {
		goNames[i] = fl.Name
	}
	for _, m := range s.Members {
		if !slices.Contains(goNames, m.Name) {
			c.lacks("library", where, m.Name)
		}
	}
	for i, name := range goNames {
		m, ok := s.Member(name)
		if !ok {
			if !s.Open {
				c.lacks("SDK", where, name)
			}
			continue
		}
		c.compared++
		if depth >= maxCompareDepth {
			continue
		}
		ft := t.FieldByIndex(fields[i].Index).Type
		if gt, ok := goObject(ft); ok {
			ns, ok, err := f.ObjectShape(m.Type)
			if err != nil {
				c.errorf("%s.%s: %v", where, name, err)
			} else if ok {
				c.compare(f, where+"."+name, ns, gt, depth+1)
			}
			continue
		}
		ge, ok := goElem(ft)
		if !ok {
			continue
		}
		ge, ok = goObject(ge)
		if !ok {
			continue
		}
		se, ok := f.Elem(m.Type)
		if !ok {
			continue
		}
		ns, ok, err := f.ObjectShape(se)
		if err != nil {
			c.errorf("%s.%s[]: %v", where, name, err)
		} else if ok {
			c.compare(f, where+"."+name+"[]", ns, ge, depth+1)
		}
	}
}

var rawValueT = reflect.TypeFor[jsontext.Value]()

// goObject returns the struct type that t (or what it points to) is
// encoded as a JSON object from, field by field.
func goObject(t reflect.Type) (reflect.Type, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || wire.EncodesItself(t) {
		return nil, false
	}
	return t, true
}

// goElem returns the element type of a slice or array type that encodes
// as a JSON array.
func goElem(t reflect.Type) (reflect.Type, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawValueT || wire.EncodesItself(t) || (t.Kind() != reflect.Slice && t.Kind() != reflect.Array) || t.Elem().Kind() == reflect.Uint8 {
		return nil, false
	}
	return t.Elem(), true
}

// TestSDKDrift packs the Agent SDK (see drift_sdk_test.go) and compares it
// with the library: against verifiedSDK it fails on drift; with
// HOOK_SDK_VERSION set to another version or tag it reports the drift.
func TestSDKDrift(t *testing.T) {
	version := os.Getenv("HOOK_SDK_VERSION")
	if version == "" {
		version = verifiedSDK
	}
	strict := version == verifiedSDK
	files := loadSDK(t, version)
	if strict {
		require.Equal(t, verifiedSDK, files.Version, "package.json version")
		require.Equal(t, verifiedClaudeCode, files.ClaudeCodeVersion, "package.json claudeCodeVersion")
	}
	c, err := checkDrift(files.SDK, files.Tools)
	require.NoError(t, err)
	unexpected, allowed, stale := sortDrift(c.found)

	var report strings.Builder
	fmt.Fprintf(&report, "%s %s (claudeCodeVersion %s) against the library, verified against %s (%s):\n",
		sdkPackage, files.Version, files.ClaudeCodeVersion, verifiedSDK, verifiedClaudeCode)
	fmt.Fprintf(&report, "  %d members agree in %d objects\n", c.compared, c.objects)
	if len(unexpected)+len(c.errs) == 0 {
		report.WriteString("  no drift: the events, input fields, output fields and tool input members agree\n")
	}
	for _, d := range unexpected {
		fmt.Fprintf(&report, "  drift: %v\n", d)
	}
	for _, e := range c.errs {
		fmt.Fprintf(&report, "  cannot compare: %s\n", e)
	}
	for _, a := range allowed {
		fmt.Fprintf(&report, "  allowed: %s\n", a)
	}
	if !strict {
		t.Logf("drift report: %s", report.String())
		return
	}
	for _, d := range unexpected {
		t.Errorf("drift: %v", d)
	}
	for _, e := range c.errs {
		t.Errorf("drift: cannot compare: %s", e)
	}
	for _, s := range stale {
		t.Errorf("drift: allowed but not found (remove it from driftAllowed): %v", s)
	}
	t.Logf("%s", report.String())
}

// sortDrift splits found into the drift driftAllowed does not list and
// the drift it does (with the reason), and returns the entries of
// driftAllowed that match nothing.
func sortDrift(found []drift) (unexpected []drift, allowed []string, stale []drift) {
	matched := map[drift]bool{}
	for _, d := range found {
		i := slices.IndexFunc(driftAllowed, func(a allowedDrift) bool { return a.drift == d })
		if i < 0 {
			unexpected = append(unexpected, d)
			continue
		}
		matched[d] = true
		allowed = append(allowed, fmt.Sprintf("%v (%s)", d, driftAllowed[i].reason))
	}
	for _, a := range driftAllowed {
		if !matched[a.drift] {
			stale = append(stale, a.drift)
		}
	}
	return unexpected, allowed, stale
}

package wire

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// trickyStrings are Go strings that encoders like to get wrong.
var trickyStrings = []string{
	"", "plain", `quote " and backslash \`, "tab\tnewline\ncr\r", "\x00\x01\x1f\x7f", "<script>&amp;</script>",
	"line\u2028para\u2029", "Zürich ☕ 👩‍👩‍👧", "\xff\xfe invalid", "\xed\xa0\x80 surrogate", "a/b", "é",
	strings.Repeat("long \\n \"x\" ", 200),
}

// TestAppendQuote checks the fast codec's string escaping against
// jsontext.AppendQuote for every ASCII byte, the characters that other
// encoders escape and invalid UTF-8, which it must decline.
func TestAppendQuote(t *testing.T) {
	var all []string
	for c := range 0x80 {
		all = append(all, string(rune(c)), "a"+string(rune(c))+"b")
	}
	all = append(all, "", "Zürich", "\u2028\u2029", "<>&", "\ufffd", "\U0001F600", "\x7f", "tab\there \"q\" \\ end")
	all = append(all, trickyStrings...)
	for _, s := range all {
		want, err := jsontext.AppendQuote([]byte("x"), s)
		got, ok := appendQuote([]byte("x"), s)
		if err != nil {
			assert.False(t, ok, "%q: declined", s)
			assert.Equal(t, "x", string(got), "%q: dst unchanged", s)
			continue
		}
		assert.True(t, ok, "%q", s)
		assert.Equal(t, string(want), string(got), "%q", s)
	}
	for _, s := range []string{"\xff", "a\xc3", "\xed\xa0\x80"} {
		_, ok := appendQuote(nil, s)
		assert.False(t, ok, "%q: invalid UTF-8 is left to the json package", s)
	}
}

// TestFastTypeCacheGrows builds more types than the cache searches
// linearly, and more types, fields and index sequences than the static
// first slab holds: every type keeps its entry and its tables, before and
// after the switch to a map and to allocated slabs.
func TestFastTypeCacheGrows(t *testing.T) {
	var built []*Type
	var types []reflect.Type
	for i := range 2*maxLinear + 5 {
		typ := reflect.StructOf([]reflect.StructField{{Name: "S", Type: reflect.TypeFor[string](), Tag: reflect.StructTag(fmt.Sprintf(`json:"s%d"`, i))}})
		ft := TypeOf(typ)
		require.NotNil(t, ft, "type %d", i)
		assert.Equal(t, fmt.Sprintf("s%d", i), ft.fields[0].name)
		built = append(built, ft)
		types = append(types, typ)
	}
	for i, typ := range types {
		assert.Same(t, built[i], TypeOf(typ), "type %d is cached", i)
		require.Len(t, built[i].fields, 1, "type %d", i)
		assert.Equal(t, fmt.Sprintf("s%d", i), built[i].fields[0].name, "type %d keeps its field", i)
		assert.Equal(t, []int{0}, built[i].fields[0].index, "type %d keeps its index", i)
	}
	last := len(types) - 1
	got, err := Marshal(reflect.New(types[last]).Interface())
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprintf(`{"s%d":""}`, last), string(got))
}

// ownNamed is a plain struct of this package: not the API package's, so
// the fast codec leaves it to the json package.
type ownNamed struct {
	S string `json:"s"`
}

// TestAPIPackageIsModuleRoot checks that the API package is found from
// wire's own path, and that the named types of any other package, this
// one's included, are declined while unnamed ones are taken.
func TestAPIPackageIsModuleRoot(t *testing.T) {
	api := APIPackage()
	assert.Equal(t, api+"/internal/wire", reflect.TypeFor[Type]().PkgPath())
	assert.NotContains(t, api, "/internal/")
	assert.Nil(t, TypeOf(reflect.TypeFor[ownNamed]()), "a named type of another package")
	assert.Nil(t, TypeOf(reflect.TypeFor[time.Month]()), "a named type of the standard library")
	assert.NotNil(t, TypeOf(reflect.TypeFor[struct {
		S string `json:"s"`
	}]()), "an unnamed struct")
}

package jsonopts

import (
	"math"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecodeReadsAnyNumberIntoIntegers checks the number rule of Decode:
// an integer in range reads exactly, any other number as JavaScript reads
// it, without its fraction and clamped to the type's range; a value of
// another kind is an error, as without the rule.
func TestDecodeReadsAnyNumberIntoIntegers(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"7", 7}, {"2.50", 2}, {"-2.5", -2}, {"1.2e2", 120}, {"120.0", 120},
		{"9223372036854775807", math.MaxInt64}, {"9223372036854775808", math.MaxInt64},
		{"1e400", math.MaxInt64}, {"-1e400", math.MinInt64},
	} {
		var v int64
		require.NoError(t, json.Unmarshal([]byte(c.in), &v, Decode()), c.in)
		assert.Equal(t, c.want, v, c.in)
	}
	var small int8
	require.NoError(t, json.Unmarshal([]byte("300.5"), &small, Decode()))
	assert.Equal(t, int8(math.MaxInt8), small)
	for _, c := range []struct {
		in   string
		want uint16
	}{
		{"65535", math.MaxUint16}, {"65536", math.MaxUint16}, {"-3", 0}, {"2.9", 2}, {"-0.5", 0},
	} {
		var v uint16
		require.NoError(t, json.Unmarshal([]byte(c.in), &v, Decode()), c.in)
		assert.Equal(t, c.want, v, c.in)
	}
	var v int
	assert.Error(t, json.Unmarshal([]byte(`"7"`), &v, Decode()), "a string is not a number")
	assert.Error(t, json.Unmarshal([]byte("2.5"), &v, Unmarshal()), "Unmarshal alone has no number rule")
}

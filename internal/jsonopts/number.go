package jsonopts

import (
	"math"
	"strconv"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Claude Code writes numbers with JavaScript's JSON.stringify: every
// number is an IEEE-754 double, and a field that the SDK declares as an
// integer can still arrive as 2.5, 120.0 or 1.2e2 (from a model or a
// setting). A typed view must read every value Claude Code can send, so
// integer fields take any JSON number: one that is an integer in range
// reads exactly; otherwise it is read as JavaScript reads it (a double),
// its fraction is dropped (2.50 reads as 2, -2.5 as -2) and a value beyond
// the type's range reads as the nearest bound. Typed edits compare
// decoded values, so a member the edit did not change keeps its bytes
// ("2.50" stays "2.50").

// numberUnmarshalers returns the unmarshalers that decode JSON numbers
// into Go integers that way.
func numberUnmarshalers() *json.Unmarshalers {
	return json.JoinUnmarshalers(
		json.UnmarshalFromFunc(intFrom[int]),
		json.UnmarshalFromFunc(intFrom[int8]),
		json.UnmarshalFromFunc(intFrom[int16]),
		json.UnmarshalFromFunc(intFrom[int32]),
		json.UnmarshalFromFunc(intFrom[int64]),
		json.UnmarshalFromFunc(uintFrom[uint]),
		json.UnmarshalFromFunc(uintFrom[uint8]),
		json.UnmarshalFromFunc(uintFrom[uint16]),
		json.UnmarshalFromFunc(uintFrom[uint32]),
		json.UnmarshalFromFunc(uintFrom[uint64]),
	)
}

type signed interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

type unsigned interface {
	~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// intFrom decodes a JSON number into *v as described above; anything
// else is left to the json package (which reports the error).
func intFrom[T signed](dec *jsontext.Decoder, v *T) error {
	num, err := readNumber(dec)
	if err != nil {
		return err
	}
	bits := 8 * int(sizeOf[T]())
	lo, hi := -int64(1)<<(bits-1), int64(1)<<(bits-1)-1
	if n, err := strconv.ParseInt(num, 10, bits); err == nil {
		*v = T(n)
		return nil
	}
	f := truncated(num)
	switch {
	case f <= float64(lo):
		*v = T(lo)
	case f >= float64(hi):
		*v = T(hi)
	default:
		*v = T(int64(f))
	}
	return nil
}

// uintFrom is intFrom for unsigned integers; negative numbers read as 0.
func uintFrom[T unsigned](dec *jsontext.Decoder, v *T) error {
	num, err := readNumber(dec)
	if err != nil {
		return err
	}
	bits := 8 * int(sizeOf[T]())
	hi := uint64(1)<<(bits-1)<<1 - 1
	if n, err := strconv.ParseUint(num, 10, bits); err == nil {
		*v = T(n)
		return nil
	}
	f := truncated(num)
	switch {
	case f <= 0 || math.IsNaN(f):
		*v = 0
	case f >= float64(hi):
		*v = T(hi)
	default:
		*v = T(uint64(f))
	}
	return nil
}

// readNumber reads the next token when it is a number and returns its
// text; for any other kind it returns SkipFunc, which leaves the value to
// the json package (which reports the error).
func readNumber(dec *jsontext.Decoder) (string, error) {
	if dec.PeekKind() != '0' {
		return "", SkipFunc
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return "", err
	}
	return tok.String(), nil
}

// truncated reads num as JavaScript does, a double (±Inf beyond its
// range), without its fraction.
func truncated(num string) float64 {
	f, _ := strconv.ParseFloat(num, 64)
	return math.Trunc(f)
}

// sizeOf returns the size of T in bytes.
func sizeOf[T signed | unsigned]() uintptr {
	var x T
	switch any(x).(type) {
	case int8, uint8:
		return 1
	case int16, uint16:
		return 2
	case int32, uint32:
		return 4
	case int, uint:
		return strconv.IntSize / 8
	}
	return 8
}

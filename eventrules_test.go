package hook

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gohooks/hook/internal/protocol"
)

// TestEveryAnswerHasItsRules: each row of the protocol table has its
// answer type, and that type has the methods its row and its fields call
// for, so that a new event's file cannot leave a rule to a default that
// does not fit it: every answer combines; plain text where the row says
// so; a deny form where the block form is a permission decision; a
// rewrite where the answer carries one.
func TestEveryAnswerHasItsRules(t *testing.T) {
	assert.True(t, answerType("NoSuchEvent") == nil)
	for _, e := range protocol.Events {
		a := answerType(e.Name)
		require.True(t, a != nil, "%s has no answer type", e.Name)
		typ := reflect.TypeOf(a).Elem()
		assert.Equal(t, e.Name+"Output", typ.Name())
		_, ok := a.(combiner)
		assert.True(t, ok, "%s combines", typ.Name())
		_, ok = a.(plainTextAnswer)
		assert.Equal(t, e.Text != protocol.TextNone, ok, "%s has a plain-text form exactly when the table says so", typ.Name())
		_, ok = a.(feedbackBlocker)
		assert.Equal(t, e.Feedback, ok, "%s has a feedback block exactly when the table says so", typ.Name())
		_, ok = a.(denier)
		assert.Equal(t, e.Block == protocol.BlockDeny, ok, "%s has a deny form exactly when its block form is a permission decision", typ.Name())
		if _, text := typ.FieldByName("Text"); text {
			_, ok = a.(textAnswer)
			assert.True(t, ok, "%s says how its text joins JSON answers", typ.Name())
		}
		// (An Elicitation's Content answers the request; an
		// ElicitationResult's rewrites the user's.)
		for _, f := range []string{"UpdatedInput", "UpdatedToolOutput", "DisplayContent"} {
			if _, has := typ.FieldByName(f); has {
				_, ok = a.(rewriter)
				assert.True(t, ok, "%s says what its %s rewrites", typ.Name(), f)
			}
		}
		if e.Name == EventElicitationResult {
			_, ok = a.(rewriter)
			assert.True(t, ok, "%s says what its Content rewrites", typ.Name())
		}
		if _, has := typ.FieldByName("Removed"); has {
			_, ok = a.(remover)
			assert.True(t, ok, "%s lists its removals", typ.Name())
		}
		if _, has := typ.FieldByName("Decision"); has {
			_, ok = a.(refuser)
			assert.True(t, ok, "%s says when its decision refuses", typ.Name())
		}
	}
}

// TestHonoursHaltFollowsTheTable: the generated honoursHalt is the
// table's HaltIgnored column.
func TestHonoursHaltFollowsTheTable(t *testing.T) {
	for _, e := range protocol.Events {
		assert.Equal(t, !e.HaltIgnored, honoursHalt(e.Name), e.Name)
	}
	assert.True(t, honoursHalt("NoSuchEvent"))
}

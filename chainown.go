package hook

import (
	"hash/maphash"
	"sync"
	"sync/atomic"
	"unsafe"
)

// This file tells a handler's own change from a stale copy.
//
// A handler of a chain that sets a member back to the value it had
// before an earlier handler changed it (a clamp after a raise) gives the
// same rewrite as one that built its rewrite from a copy of the input
// kept from before the chain changed it: the values cannot tell them
// apart. How the rewrite was made can. While a handler of a chain runs,
// the chain records the object it was given ([Event.Field] of
// tool_input, tool_response or content, the bytes the handler's typed
// event holds too); [Merge], [Edit] and [Update] note every result they
// build from those very bytes, unchanged. Such a rewrite starts from what
// the handler was given, so every value in it is either carried over from
// that or set by the handler: its own choice, even when it is the
// original value. checkKept then compares it element by element only
// (see keeper).

// handedObjects maps the first byte of each object a chain has handed to
// a running handler to what is known of it; handing counts the entries,
// so that Merge looks nothing up when no chain runs.
var (
	handedObjects sync.Map // valueKey → *handed
	handing       atomic.Int32
)

// handed is an object a chain handed to a handler, and the values built
// from it.
type handed struct {
	sum   uint64 // the hash of its bytes when handed, with built's seed
	built recentValues
}

// recentValues holds the last few values noted, by their bytes' identity
// and hash, for concurrent handlers.
type recentValues struct {
	seed maphash.Seed
	keep int // how many are kept
	mu   sync.Mutex
	vs   []builtValue
}

// builtValue is a value noted in a recentValues: its bytes' identity and
// hash.
type builtValue struct {
	key valueKey
	sum uint64
}

// note adds v, forgetting the oldest value when keep are held.
func (r *recentValues) note(v []byte) {
	b := builtValue{key: keyOf(v), sum: handSum(r.seed, v)}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.vs) == r.keep {
		r.vs = append(r.vs[:0:0], r.vs[1:]...)
	}
	r.vs = append(r.vs, b)
}

// holds reports whether v, the very bytes noted, is held and unchanged
// since it was noted.
func (r *recentValues) holds(v []byte) bool {
	key := keyOf(v)
	r.mu.Lock()
	var found *builtValue
	for i := len(r.vs) - 1; i >= 0; i-- {
		if r.vs[i].key == key {
			found = &r.vs[i]
			break
		}
	}
	r.mu.Unlock()
	return found != nil && handSum(r.seed, v) == found.sum
}

// handSum returns the hash of v's bytes with seed.
func handSum(seed maphash.Seed, v []byte) uint64 {
	return maphash.String(seed, unsafe.String(unsafe.SliceData(v), len(v)))
}

// keyOf returns the identity of v's bytes.
func keyOf(v []byte) valueKey {
	return valueKey{unsafe.SliceData(v), len(v)}
}

// handOut records the objects among the members names of view while its
// handler runs, and returns the function that forgets them.
func handOut(view *Event, names ...string) (forget func()) {
	var keys []valueKey
	for _, name := range names {
		v, ok := view.Field(name)
		if !ok || len(v) < 2 || v[0] != '{' {
			continue
		}
		key := keyOf(v)
		seed := maphash.MakeSeed()
		h := &handed{sum: handSum(seed, v), built: recentValues{seed: seed, keep: 8}} // a handler's last few results
		if _, dup := handedObjects.LoadOrStore(key, h); dup {
			continue // handed by an enclosing chain, which forgets it
		}
		keys = append(keys, key)
	}
	if len(keys) == 0 {
		return func() {}
	}
	handing.Add(1)
	return func() {
		for _, key := range keys {
			handedObjects.Delete(key)
		}
		handing.Add(-1)
	}
}

// noteBuilt records out as built from orig when orig is an object a chain
// handed to a running handler, unchanged since.
func noteBuilt(orig, out []byte) {
	if handing.Load() == 0 || len(orig) == 0 || len(out) == 0 {
		return
	}
	v, ok := handedObjects.Load(keyOf(orig))
	if !ok {
		return
	}
	h := v.(*handed)
	if handSum(h.built.seed, orig) != h.sum {
		return // the handler wrote into what it was given
	}
	h.built.note(out)
}

// builtFrom reports whether upd was built by Merge, Edit or Update from
// seen, an object a chain handed to the running handler, and is
// unchanged since.
func builtFrom(seen, upd []byte) bool {
	if len(seen) == 0 || len(upd) == 0 {
		return false
	}
	v, ok := handedObjects.Load(keyOf(seen))
	if !ok {
		return false
	}
	return v.(*handed).built.holds(upd)
}

// checkedRewrites maps the event an outermost chain was given to the
// rewrites the chains inside it have checked against that event's input
// and passed: an enclosing chain takes the combined answer of a
// sub-chain (or of a Mux, or of middleware around one) as that
// handler's answer, and does not refuse again what the sub-chain saw to
// be its handlers' own (a clamp made two levels down).
var checkedRewrites sync.Map // *Event → *recentValues

// checking starts the record of the rewrites checked against the input
// of origin, when no chain has started it, and returns the function that
// ends it.
func checking(origin *Event) (end func()) {
	if _, dup := checkedRewrites.LoadOrStore(origin, &recentValues{seed: maphash.MakeSeed(), keep: 16}); dup {
		return func() {}
	}
	return func() { checkedRewrites.Delete(origin) }
}

// noteChecked records that upd passed the check against origin's input.
func noteChecked(origin *Event, upd []byte) {
	v, ok := checkedRewrites.Load(origin)
	if !ok || len(upd) == 0 {
		return
	}
	v.(*recentValues).note(upd)
}

// wasChecked reports whether upd, unchanged, passed the check against
// origin's input in a chain inside the one checking it now.
func wasChecked(origin *Event, upd []byte) bool {
	v, ok := checkedRewrites.Load(origin)
	if !ok || len(upd) == 0 {
		return false
	}
	return v.(*recentValues).holds(upd)
}

// handedIntact reports whether seen, when a chain handed it to the
// running handler, still holds the bytes it was handed with.
func handedIntact(seen []byte) bool {
	if len(seen) == 0 {
		return true
	}
	v, ok := handedObjects.Load(keyOf(seen))
	if !ok {
		return true
	}
	h := v.(*handed)
	return handSum(h.built.seed, seen) == h.sum
}

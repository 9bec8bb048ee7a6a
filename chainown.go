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
	seed  maphash.Seed
	sum   uint64 // the hash of its bytes when handed
	mu    sync.Mutex
	built []builtValue
}

// builtValue is a value Merge, Edit or Update built from a handed
// object: its bytes' identity and hash.
type builtValue struct {
	key valueKey
	sum uint64
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
		if _, dup := handedObjects.LoadOrStore(key, &handed{seed: seed, sum: handSum(seed, v)}); dup {
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
	if handSum(h.seed, orig) != h.sum {
		return // the handler wrote into what it was given
	}
	b := builtValue{key: keyOf(out), sum: handSum(h.seed, out)}
	h.mu.Lock()
	defer h.mu.Unlock()
	const keep = 8 // a handler's last few results
	if len(h.built) == keep {
		h.built = append(h.built[:0:0], h.built[1:]...)
	}
	h.built = append(h.built, b)
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
	h := v.(*handed)
	key := keyOf(upd)
	h.mu.Lock()
	var found *builtValue
	for i := len(h.built) - 1; i >= 0; i-- {
		if h.built[i].key == key {
			found = &h.built[i]
			break
		}
	}
	h.mu.Unlock()
	return found != nil && handSum(h.seed, upd) == found.sum
}

// checkedRewrites maps the event an outermost chain was given to the
// rewrites the chains inside it have checked against that event's input
// and passed: an enclosing chain takes the combined answer of a
// sub-chain (or of a Mux, or of middleware around one) as that
// handler's answer, and does not refuse again what the sub-chain saw to
// be its handlers' own (a clamp made two levels down).
var checkedRewrites sync.Map // *Event → *checkedList

type checkedList struct {
	seed maphash.Seed
	mu   sync.Mutex
	vs   []builtValue
}

// checking starts the record of the rewrites checked against the input
// of origin, when no chain has started it, and returns the function that
// ends it.
func checking(origin *Event) (end func()) {
	if _, dup := checkedRewrites.LoadOrStore(origin, &checkedList{seed: maphash.MakeSeed()}); dup {
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
	l := v.(*checkedList)
	b := builtValue{key: keyOf(upd), sum: handSum(l.seed, upd)}
	l.mu.Lock()
	defer l.mu.Unlock()
	const keep = 16
	if len(l.vs) == keep {
		l.vs = append(l.vs[:0:0], l.vs[1:]...)
	}
	l.vs = append(l.vs, b)
}

// wasChecked reports whether upd, unchanged, passed the check against
// origin's input in a chain inside the one checking it now.
func wasChecked(origin *Event, upd []byte) bool {
	v, ok := checkedRewrites.Load(origin)
	if !ok || len(upd) == 0 {
		return false
	}
	l := v.(*checkedList)
	key := keyOf(upd)
	l.mu.Lock()
	var found *builtValue
	for i := len(l.vs) - 1; i >= 0; i-- {
		if l.vs[i].key == key {
			found = &l.vs[i]
			break
		}
	}
	l.mu.Unlock()
	return found != nil && handSum(l.seed, upd) == found.sum
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
	return handSum(h.seed, seen) == h.sum
}

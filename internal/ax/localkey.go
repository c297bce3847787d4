package ax

import "github.com/go-rod/rod/lib/proto"

// LocalIndex is the inventory's own index (globalThis.__rodagent.els[k]) of
// the element with key local in the world ctxID, and whether local belongs
// to that world.
func LocalIndex(ctxID proto.RuntimeExecutionContextID, local int) (int, bool) {
	k := local - int(ctxID)*keySpan - 1
	return k, k >= 0 && k < keySpan
}

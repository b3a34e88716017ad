// Package par splits a loop over many items among the machine's cores:
// a listing of thousands of sessions does the same small work for each,
// and a machine that runs one mas command at a time has cores idle.
package par

import (
	"runtime"
	"sync"
)

// Parts is into how many ranges Do splits n items, each of at least least
// items: one per CPU, fewer when there are not that many items, and one
// (no goroutine) when there are fewer than twice least.
func Parts(n, least int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/max(least, 1)))
}

// Do calls fn(part, from, to) for the Parts(n, least) ranges that cover
// [0, n) in order, each on a goroutine of its own when there are several,
// and returns once every call has returned. part numbers the ranges from
// 0, so that a caller can keep what each finds apart.
func Do(n, least int, fn func(part, from, to int)) {
	parts := Parts(n, least)
	if parts == 1 {
		fn(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() { fn(p, p*n/parts, (p+1)*n/parts) })
	}
	wg.Wait()
}

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

// Stream writes the bytes that text makes of [0, n), in order, in pieces
// of at most piece items each: made on Parts(n, least) goroutines (as Do
// splits its items), each into a buffer of its own that it reuses once
// write has taken it, and written one after the other. What is made and
// not yet written is a piece per goroutine, not the whole output
// (session list writes a megabyte for thousands of sessions). Stream
// returns write's first error; the pieces after it are not made.
func Stream(n, least, piece int, text func(b []byte, from, to int) []byte, write func([]byte) error) error {
	piece = max(piece, 1)
	pieces := (n + piece - 1) / piece
	workers := Parts(n, least)
	var (
		mu     sync.Mutex
		turn   = sync.NewCond(&mu)
		next   int // the piece whose turn it is to be written
		claims int // the pieces claimed by a goroutine
		err    error
	)
	// claim returns the next piece to make, false when none is left or
	// write failed.
	claim := func() (int, bool) {
		mu.Lock()
		defer mu.Unlock()
		if claims == pieces || err != nil {
			return 0, false
		}
		claims++
		return claims - 1, true
	}
	work := func() {
		var b []byte
		for {
			p, ok := claim()
			if !ok {
				return
			}
			b = text(b[:0], p*piece, min(n, (p+1)*piece))
			// Pieces are claimed in order: the one whose turn it is
			// has been claimed, and its goroutine waits for nothing
			// else.
			mu.Lock()
			for next != p {
				turn.Wait()
			}
			if err == nil {
				err = write(b)
			}
			next++
			turn.Broadcast()
			mu.Unlock()
		}
	}
	if workers == 1 {
		work()
		return err
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(work)
	}
	wg.Wait()
	return err
}

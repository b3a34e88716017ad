package par

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestDoCoversEachItemOnce: every item of the loop is done, once, by
// the part its range says, and the ranges come in order.
func TestDoCoversEachItemOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, tc := range []struct{ n, least, parts int }{
		{0, 10, 1}, {5, 10, 1}, {19, 10, 1}, {20, 10, 2}, {35, 10, 3}, {1000, 10, 4}, {7, 0, 4},
	} {
		if got := Parts(tc.n, tc.least); got != tc.parts {
			t.Errorf("Parts(%d, %d) = %d, want %d", tc.n, tc.least, got, tc.parts)
		}
		done := make([]atomic.Int32, tc.n)
		froms := make([]int, tc.parts)
		tos := make([]int, tc.parts)
		Do(tc.n, tc.least, func(part, from, to int) {
			froms[part], tos[part] = from, to
			for i := from; i < to; i++ {
				done[i].Add(1)
			}
		})
		for i := range done {
			if done[i].Load() != 1 {
				t.Errorf("n=%d: item %d done %d times", tc.n, i, done[i].Load())
			}
		}
		for p := 1; p < tc.parts; p++ {
			if froms[p] != tos[p-1] {
				t.Errorf("n=%d: part %d starts at %d, the one before ends at %d", tc.n, p, froms[p], tos[p-1])
			}
		}
	}
}

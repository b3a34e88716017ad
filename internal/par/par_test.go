package par

import (
	"bytes"
	"errors"
	"fmt"
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

func TestStreamWritesEveryPieceInOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, tc := range []struct{ n, least, piece int }{{0, 10, 10}, {5, 10, 2}, {10, 10, 10}, {95, 10, 10}, {1000, 100, 7}, {1000, 1000, 7}, {3, 0, 0}} {
		var got []byte
		writes := 0
		err := Stream(tc.n, tc.least, tc.piece, func(b []byte, from, to int) []byte {
			for i := from; i < to; i++ {
				b = fmt.Appendf(b, "%d\n", i)
			}
			return b
		}, func(b []byte) error {
			writes++
			got = append(got, b...)
			return nil
		})
		var want []byte
		for i := range tc.n {
			want = fmt.Appendf(want, "%d\n", i)
		}
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%+v: err %v, wrote %q, want %q", tc, err, got, want)
		}
		if piece := max(tc.piece, 1); writes != (tc.n+piece-1)/piece {
			t.Errorf("%+v: %d writes, want one per piece", tc, writes)
		}
	}
}

func TestStreamStopsAtTheFirstWriteError(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	failed := errors.New("broken pipe")
	var made, writes atomic.Int32
	err := Stream(1000, 10, 10, func(b []byte, from, to int) []byte {
		made.Add(1)
		return append(b, 'x')
	}, func([]byte) error {
		if writes.Add(1) == 3 {
			return failed
		}
		return nil
	})
	if err != failed {
		t.Fatalf("Stream returned %v, want the write's error", err)
	}
	if writes.Load() != 3 {
		t.Errorf("%d writes, want none after the failed third", writes.Load())
	}
	// Each goroutine may have made one piece past the failure.
	if made.Load() > 3+4 {
		t.Errorf("%d pieces made after a write failed at the third", made.Load())
	}
}

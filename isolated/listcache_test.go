package isolated

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"mas/internal/activity"
)

// sessionsFor makes n stopped sessions under a new root, as bench.sh
// does, and returns the root.
func sessionsFor(tb testing.TB, n int) string {
	tb.Helper()
	root := tb.TempDir()
	for range n {
		writeSession(tb, root, uuid.NewString(), func(_, line string) string { return line })
	}
	return root
}

// later is a cache of root whose clock is an hour ahead: the files just
// written are settled (racyWindow) and the sessions idle long enough
// (idleGrace) for the cache to keep them.
func later(root string) *ListCache {
	c := NewListCache(root)
	c.now = func() time.Time { return time.Now().Add(time.Hour) }
	return c
}

// listViews lists root's sessions through c and reads the activity of
// those the cache does not know it of, as the session list does
// (app.SessionView).
func listViews(tb testing.TB, c *ListCache) []Listed {
	c.mu.Lock()
	list, err := c.list(nil, true)
	c.mu.Unlock()
	if err != nil {
		tb.Fatal(err)
	}
	for _, l := range list {
		if l.Activity == nil && l.Error == "" {
			activity.Summarize(l.ActivityDir())
		}
	}
	return list
}

// BenchmarkList measures a listing of n sessions: reading every session
// (what the list cost before the cache: no cache file, or one that cannot
// be used), through the cache file (a command: the file read, one stat
// per session), and through a cache kept in memory (mas serve).
func BenchmarkList(b *testing.B) {
	for _, n := range []int{1, 100, 1000, 5000} {
		root := sessionsFor(b, n)
		warm := later(root)
		for range 2 { // the second lists the directory as the first's save left it
			listViews(b, warm)
			warm.Save()
		}
		b.Run(fmt.Sprintf("n=%d/read-all", n), func(b *testing.B) {
			for b.Loop() {
				c := later(root)
				c.read = true // as if there were no file
				listViews(b, c)
			}
		})
		b.Run(fmt.Sprintf("n=%d/cache-file", n), func(b *testing.B) {
			for b.Loop() {
				listViews(b, later(root))
			}
		})
		b.Run(fmt.Sprintf("n=%d/in-memory", n), func(b *testing.B) {
			for b.Loop() {
				listViews(b, warm)
			}
		})
	}
}

package isolated

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/uuid"

	"mas/internal/layout"
)

// stamped lists root through a new cache, as a command does, and returns
// the listing's stamp.
func stamped(t *testing.T, root string, running []layout.Ref) (Stamp, bool) {
	t.Helper()
	c := later(root)
	through(t, c, running)
	return c.Stamp()
}

// TestStampHoldsWhileNothingChanged: a listing that changed nothing has
// a stamp, which StampNow gives again until a command marks a session, a
// session is added, or the cache file is rewritten or removed.
func TestStampHoldsWhileNothingChanged(t *testing.T) {
	root := warmedOne(t)
	stamp, ok := stamped(t, root, nil)
	if !ok {
		t.Fatal("a listing that changed nothing has no stamp")
	}
	if now, ok := StampNow(root); !ok || now != stamp {
		t.Fatalf("StampNow = %v, %v; want the listing's %v", now, ok, stamp)
	}
	if parsed, ok := ParseStamp(root, stamp.String()); !ok || parsed != stamp {
		t.Errorf("ParseStamp(String()) = %v, %v", parsed, ok)
	}
	if parsed, ok := ParseStamp(root+"/other", stamp.String()); !ok || parsed == stamp {
		t.Errorf("another root's: %v, %v", parsed, ok)
	}

	mark := filepath.Join(changedDir(root), oneID)
	must(t, os.WriteFile(mark, nil, 0o600))
	if _, ok := StampNow(root); ok {
		t.Error("a mark keeps the stamp")
	}
	if _, ok := stamped(t, root, nil); ok {
		t.Error("a listing that found a mark has a stamp")
	}
	os.Remove(mark) // unless that listing consumed it: an hour old by its clock

	data, err := os.ReadFile(listCacheFile(root))
	must(t, err)
	must(t, os.WriteFile(listCacheFile(root)+".new", data, 0o600))
	must(t, os.Rename(listCacheFile(root)+".new", listCacheFile(root)))
	if now, _ := StampNow(root); now == stamp {
		t.Error("a cache file written again keeps the stamp")
	}
	must(t, os.Remove(listCacheFile(root)))
	if _, ok := StampNow(root); ok {
		t.Error("no cache file, a stamp")
	}
}

// TestStampIsNotGivenToAListingThatChangedSomething: a listing that read
// the sessions directory or a .session again writes the cache file, and
// one whose files changed less than racyWindow before cannot be told
// unchanged: no stamp.
func TestStampIsNotGivenToAListingThatChangedSomething(t *testing.T) {
	t.Run("a session added", func(t *testing.T) {
		root := warmedOne(t)
		writeSession(t, root, uuid.NewString(), func(_, line string) string { return line })
		if _, ok := stamped(t, root, nil); ok {
			t.Error("stamped")
		}
		if _, ok := stamped(t, root, nil); !ok {
			t.Error("the listing after it, which changed nothing, has no stamp")
		}
	})
	t.Run("a .session edited", func(t *testing.T) {
		root := warmedOne(t)
		edit(t, root, oneID, "CREATED_AT", "2027-01-02T03:04:05Z")
		// Marked, as a command would: read again, the mark consumed (an
		// hour old by the listing's clock), the cache file written.
		must(t, os.WriteFile(filepath.Join(changedDir(root), oneID), nil, 0o600))
		if _, ok := stamped(t, root, nil); ok {
			t.Error("stamped")
		}
	})
	t.Run("the clock of now: files just written", func(t *testing.T) {
		root := warmedOne(t)
		c := NewListCache(root)
		through(t, c, nil)
		if _, ok := c.Stamp(); ok {
			t.Error("stamped")
		}
	})
	t.Run("before any listing", func(t *testing.T) {
		if _, ok := later(warmedOne(t)).Stamp(); ok {
			t.Error("stamped")
		}
	})
}

package isolated

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// mustWatch is watchedCache, the test skipped where the kernel has no
// inotify to offer.
func mustWatch(t *testing.T, root string) *ListCache {
	c := watchedCache(t, root)
	if c == nil {
		t.Skip("no inotify here")
	}
	return c
}

// TestListCacheWatchTellsChanges: a cache that watches (mas serve) trusts
// a .session its watch says nothing of, without a stat, and reads again
// one that a person edited, in place or by a rename, chmod'ed or
// replaced, without any mark; every fullSweep it stats them all.
func TestListCacheWatchTellsChanges(t *testing.T) {
	ids := []string{"11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"}
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, root, id string)
	}{
		{"edited in place", func(t *testing.T, root, id string) { edit(t, root, id, "CREATED_AT", "2027-01-02T03:04:05Z") }},
		{"replaced by an editor's rename", func(t *testing.T, root, id string) {
			path := filepath.Join(Dir(root, id), ".session")
			data, err := os.ReadFile(path)
			must(t, err)
			must(t, os.WriteFile(path+"~", []byte(strings.Replace(string(data), "2026-01-01", "2027-01-01", 1)), 0o600))
			must(t, os.Rename(path+"~", path))
		}},
		{"chmod'ed", func(t *testing.T, root, id string) { must(t, os.Chmod(filepath.Join(Dir(root, id), ".session"), 0)) }},
		{"its directory replaced", func(t *testing.T, root, id string) {
			must(t, os.Rename(Dir(root, id), Dir(root, id)+".old"))
			writeSession(t, root, id, func(k, line string) string {
				if k == "CREATED_AT" {
					return "CREATED_AT=2028-01-01T00:00:00Z"
				}
				return line
			})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, id := range ids {
				writeSession(t, root, id, func(_, line string) string { return line })
			}
			c := mustWatch(t, root)
			// What the cache holds of the second session, forged: a
			// listing that stats it would read the file again.
			c.entry(ids[1]).createdAt = "forged"
			tc.change(t, root, ids[0])
			got, want := through(t, c, nil), truth(t, root, nil)
			if got[1].CreatedAt != "forged" {
				t.Errorf("a session its watch said nothing of was read again: %+v", got[1])
			}
			if !reflect.DeepEqual(got[0], want[0]) {
				t.Errorf("the session changed:\n got %+v\nwant %+v", got[0], want[0])
			}
		})
	}
}

// TestListCacheWatchSweeps: a change no watch tells (a write through
// another name of the file, as on another machine of a network
// filesystem) is seen by the next full sweep.
func TestListCacheWatchSweeps(t *testing.T) {
	root := t.TempDir()
	id := "11111111-1111-4111-8111-111111111111"
	writeSession(t, root, id, func(_, line string) string { return line })
	c := mustWatch(t, root)
	other := filepath.Join(t.TempDir(), "other-name")
	must(t, os.Link(filepath.Join(Dir(root, id), ".session"), other))
	data, err := os.ReadFile(other)
	must(t, err)
	f, err := os.OpenFile(other, os.O_WRONLY|os.O_TRUNC, 0)
	must(t, err)
	_, err = f.WriteString(strings.Replace(string(data), "STATUS=stopped", "STATUS=active", 1))
	must(t, err)
	must(t, f.Close())
	c.watch.swept -= int64(fullSweep) // a sweep is due
	if got, want := through(t, c, nil), truth(t, root, nil); !reflect.DeepEqual(got, want) {
		t.Errorf("after a full sweep:\n got %+v\nwant %+v", got, want)
	}
}

// TestListCacheWatchLimit: past its limit of watches (a share of the
// user's, which editors and build tools need too) a cache that watches
// stats the sessions it does not watch, and sees their changes.
func TestListCacheWatchLimit(t *testing.T) {
	ids := []string{"11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"}
	root := t.TempDir()
	for _, id := range ids {
		writeSession(t, root, id, func(_, line string) string { return line })
	}
	c := later(root)
	c.Watch()
	if c.watch == nil {
		t.Skip("no inotify here")
	}
	t.Cleanup(c.Close)
	c.watch.limit = 1
	for range 3 {
		through(t, c, nil)
	}
	if len(c.watch.wds) != 1 {
		t.Fatalf("%d watches, past the limit of 1", len(c.watch.wds))
	}
	for _, id := range ids {
		edit(t, root, id, "CREATED_AT", "2027-01-02T03:04:05Z")
	}
	if got, want := through(t, c, nil), truth(t, root, nil); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// TestListCacheWatchIsOfDirectories: a watch is of a directory, not of
// its name: when another directory takes a session's name (the sessions
// directory replaced by a copy, a session directory made again while a
// pane still holds the old one), when the kernel dropped events, or when
// the directory itself changed, the session is stat'ed again and its
// edits seen.
func TestListCacheWatchIsOfDirectories(t *testing.T) {
	id := "11111111-1111-4111-8111-111111111111"
	later := func(t *testing.T, root string) { edit(t, root, id, "CREATED_AT", "2029-01-01T00:00:00Z") }
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, c *ListCache, root string)
	}{
		{"the sessions directory replaced by a copy", func(t *testing.T, c *ListCache, root string) {
			must(t, os.Rename(sessionsDir(root), sessionsDir(root)+".old"))
			must(t, exec.Command("cp", "-a", sessionsDir(root)+".old", sessionsDir(root)).Run())
			edit(t, root, id, "CREATED_AT", "2028-01-01T00:00:00Z")
		}},
		{"a session directory made again while the old one is held open", func(t *testing.T, c *ListCache, root string) {
			held, err := os.Open(Dir(root, id))
			must(t, err)
			t.Cleanup(func() { held.Close() })
			must(t, os.RemoveAll(Dir(root, id)))
			writeSession(t, root, id, func(_, line string) string { return line })
		}},
		{"events the kernel dropped", func(t *testing.T, c *ListCache, root string) {
			edit(t, root, id, "CREATED_AT", "2028-01-01T00:00:00Z")
			c.watch.drain()
			clear(c.watch.seen) // lost
			c.watch.overflow = true
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeSession(t, root, id, func(_, line string) string { return line })
			c := mustWatch(t, root)
			tc.change(t, c, root)
			listsTruth(t, c, root, nil, "after the change")
			later(t, root)
			listsTruth(t, c, root, nil, "after an edit that follows")
		})
	}
	t.Run("the directory itself changed (a chmod)", func(t *testing.T) {
		root := t.TempDir()
		writeSession(t, root, id, func(_, line string) string { return line })
		c := mustWatch(t, root)
		must(t, os.Chmod(Dir(root, id), 0o500))
		c.watch.drain()
		if !c.watch.seen[id] {
			t.Error("a chmod of the session's directory is not seen: a user who can no longer read it would be shown what it held")
		}
	})
}

package isolated

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"golang.org/x/sys/unix"

	"mas/internal/activity"
	"mas/internal/layout"
)

// list is listAs's Listed.
func (c *ListCache) list(running []layout.Ref, known bool) ([]Listed, error) {
	out, _, err := listAs(c, running, known, func(l Listed) Listed { return l })
	return out, err
}

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

// kept counts the sessions c keeps an entry of.
func (c *ListCache) kept() int {
	n := 0
	for _, e := range c.ids {
		if e.entry != nil {
			n++
		}
	}
	return n
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
		if !l.ActivityKnown && l.Error == "" {
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

// row is what session list shows of a listed session.
type row struct {
	ID, Status, Error, CreatedAt, LastActivity string
	Lost                                       bool
}

// rows are the rows of list, the activity read as app.SessionView reads
// it: from the list when it has it, else from the agents' directory.
func rows(list []Listed) []row {
	var out []row
	for _, l := range list {
		r := row{ID: l.ID, Status: string(l.Status), Error: l.Error, CreatedAt: l.CreatedAt, Lost: l.Lost}
		if l.Error == "" {
			sum := l.Activity
			if !l.ActivityKnown {
				sum = activity.Summarize(l.ActivityDir())
			}
			if !sum.Last.IsZero() {
				r.LastActivity = sum.Last.UTC().Format(time.RFC3339)
			}
		}
		out = append(out, r)
	}
	return out
}

// truth is what the files say, read without a cache (as session list
// read them before it had one).
func truth(t *testing.T, root string, running []layout.Ref) []row {
	t.Helper()
	ids, err := IDs(root)
	if err != nil {
		t.Fatal(err)
	}
	var list []Listed
	for _, id := range ids {
		list = append(list, describe(root, id, running, true))
	}
	return rows(list)
}

// through lists root through c, then saves c.
func through(t *testing.T, c *ListCache, running []layout.Ref) []row {
	t.Helper()
	c.mu.Lock()
	list, err := c.list(running, true)
	c.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	c.Save()
	return rows(list)
}

// warmed is a cache of root that has listed it twice and saved it, an
// hour ahead (later): it trusts every file.
func warmed(t *testing.T, root string, running []layout.Ref) *ListCache {
	c := later(root)
	through(t, c, running)
	through(t, c, running)
	return c
}

// edit rewrites the line of key in the .session of id under root in place
// (same inode, as nano or echo > do), to key=value.
func edit(t *testing.T, root, id, key, value string) {
	t.Helper()
	path := filepath.Join(Dir(root, id), ".session")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if strings.HasPrefix(line, key+"=") {
			line = key + "=" + value
		}
		lines = append(lines, line)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(strings.Join(lines, "\n") + "\n"); err != nil {
		t.Fatal(err)
	}
}

// runs is a tmux session that runs the agents of session id of root.
func runs(root, id string) layout.Ref {
	return layout.Ref{ID: "$1", Name: TmuxName(id), Owner: layout.Owner{Root: root, Mode: layout.Isolated, ID: id}}
}

// TestListCacheFollowsChanges: whatever changes a session's files, or
// what a command killed at any line leaves, a listing through a cache
// that trusted them before shows what a listing without a cache shows,
// from the cache's file (a command) and from memory (mas serve, from its
// second listing). A change to the files of a stopped session is seen
// from the cache's file when a command marked it (markChanged, as
// Session.save does before it writes) or when it changed the sessions
// directory; the hand edits of TestListCacheTrustsStoppedSessions are
// not.
func TestListCacheFollowsChanges(t *testing.T) {
	ids := []string{"11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222", "33333333-3333-4333-8333-333333333333"}
	a := ids[0]
	cases := []struct {
		name   string
		change func(t *testing.T, root string)
	}{
		{"STATUS edited in place", func(t *testing.T, root string) { edit(t, root, a, "STATUS", "active") }},
		{"CREATED_AT edited in place, same size", func(t *testing.T, root string) { edit(t, root, a, "CREATED_AT", "2027-01-02T03:04:05Z") }},
		{"STATUS edited to creating", func(t *testing.T, root string) { edit(t, root, a, "STATUS", "creating") }},
		{"SESSION_ID edited to another's", func(t *testing.T, root string) { edit(t, root, a, "SESSION_ID", ids[1]) }},
		{"replaced by an editor (a rename)", func(t *testing.T, root string) {
			path := filepath.Join(Dir(root, a), ".session")
			data, _ := os.ReadFile(path)
			os.WriteFile(path+".new", []byte(strings.Replace(string(data), "STATUS=stopped", "STATUS=active", 1)), 0o600)
			must(t, os.Rename(path+".new", path))
		}},
		{"mode made unreadable", func(t *testing.T, root string) {
			if os.Geteuid() == 0 {
				t.Skip("root reads any file")
			}
			must(t, os.Chmod(filepath.Join(Dir(root, a), ".session"), 0))
		}},
		{".session removed", func(t *testing.T, root string) { must(t, os.Remove(filepath.Join(Dir(root, a), ".session"))) }},
		{".session made a link", func(t *testing.T, root string) {
			path := filepath.Join(Dir(root, a), ".session")
			must(t, os.Rename(path, path+".real"))
			must(t, os.Symlink(path+".real", path))
		}},
		{"session directory removed", func(t *testing.T, root string) { must(t, os.RemoveAll(Dir(root, a))) }},
		{"session directory made a link", func(t *testing.T, root string) {
			moved := filepath.Join(t.TempDir(), "moved")
			must(t, os.Rename(Dir(root, a), moved))
			must(t, os.Symlink(moved, Dir(root, a)))
		}},
		{"session directory added", func(t *testing.T, root string) {
			writeSession(t, root, "44444444-4444-4444-8444-444444444444", func(_, line string) string { return line })
		}},
		{"a file named like a session added", func(t *testing.T, root string) {
			must(t, os.WriteFile(Dir(root, "55555555-5555-4555-8555-555555555555"), nil, 0o600))
		}},
		{"an interrupted removal (session rm killed)", func(t *testing.T, root string) {
			must(t, os.Mkdir(filepath.Join(root, "sessions", removingPrefix+"11111111-x"), 0o700))
			must(t, os.Rename(Dir(root, a), filepath.Join(root, "sessions", removingPrefix+"11111111-x", a)))
		}},
		{"an interrupted resume's marker", func(t *testing.T, root string) {
			must(t, os.WriteFile(filepath.Join(Dir(root, a), markerName), []byte(markerResume), 0o600))
		}},
		{"a create killed after its mkdir", func(t *testing.T, root string) {
			must(t, os.Mkdir(Dir(root, "66666666-6666-4666-8666-666666666666"), 0o700))
		}},
		{"a create killed before its .session said active", func(t *testing.T, root string) {
			edit(t, root, a, "STATUS", "creating")
			must(t, os.WriteFile(filepath.Join(Dir(root, a), markerName), []byte(markerAgents), 0o600))
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, id := range ids {
				writeSession(t, root, id, func(_, line string) string { return line })
			}
			mem := warmed(t, root, nil)
			watched := watchedCache(t, root)
			markChanged(filepath.Join(root, "sessions"), a)
			tc.change(t, root)
			want := truth(t, root, nil)
			if watched != nil {
				if got := through(t, watched, nil); !reflect.DeepEqual(got, want) {
					t.Errorf("through the cache in memory that watches:\n got %+v\nwant %+v", got, want)
				}
			}
			if got := through(t, later(root), nil); !reflect.DeepEqual(got, want) {
				t.Errorf("through the cache file:\n got %+v\nwant %+v", got, want)
			}
			if got := through(t, mem, nil); !reflect.DeepEqual(got, want) {
				t.Errorf("through the cache in memory:\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestListCacheAsksTmuxEveryTime: the cache keeps what files say, never
// what tmux runs.
func TestListCacheAsksTmuxEveryTime(t *testing.T) {
	root := t.TempDir()
	id := "11111111-1111-4111-8111-111111111111"
	writeSession(t, root, id, func(k, line string) string {
		if k == "STATUS" {
			return "STATUS=active"
		}
		return line
	})
	c := warmed(t, root, []layout.Ref{runs(root, id)})
	for _, running := range [][]layout.Ref{nil, {runs(root, id)}, {{ID: "$2", Name: TmuxName(id), Owner: layout.Owner{Root: t.TempDir(), Mode: layout.Isolated, ID: id}}}} {
		if got, want := through(t, c, running), truth(t, root, running); !reflect.DeepEqual(got, want) {
			t.Errorf("running %v:\n got %+v\nwant %+v", running, got, want)
		}
	}
}

// TestListCacheCreatorThatDies: a session that says creating is read every
// time: its creator's death changes no file.
func TestListCacheCreatorThatDies(t *testing.T) {
	root := t.TempDir()
	id := "11111111-1111-4111-8111-111111111111"
	writeSession(t, root, id, func(k, line string) string {
		if k == "STATUS" {
			return "STATUS=creating"
		}
		return line
	})
	marker, err := holdMarker(Dir(root, id), markerAgents)
	if err != nil {
		t.Fatal(err)
	}
	c := warmed(t, root, nil)
	if got := through(t, c, nil); got[0].Status != "creating" {
		t.Fatalf("while its creator works: %+v", got)
	}
	marker.Close() // the creator dies
	if got, want := through(t, c, nil), truth(t, root, nil); !reflect.DeepEqual(got, want) || got[0].Error != "creation interrupted" {
		t.Errorf("once its creator died:\n got %+v\nwant %+v", got, want)
	}
}

// TestListCacheRacyKey: a .session whose change time is not clearly older
// than its read may change again within the same tick of the filesystem's
// clock, keeping its key (git's racy index): it is read again until its key
// has settled (racyWindow), and trusted only then.
func TestListCacheRacyKey(t *testing.T) {
	root := t.TempDir()
	id := "11111111-1111-4111-8111-111111111111"
	writeSession(t, root, id, func(_, line string) string { return line })
	var st unix.Stat_t
	must(t, unix.Stat(filepath.Join(Dir(root, id), ".session"), &st))
	changed := time.Unix(0, st.Ctim.Nano())
	c := NewListCache(root)
	at := func(d time.Duration) { c.now = func() time.Time { return changed.Add(d) } }
	// A change that kept the key: what the cache holds is not the file's.
	forge := func() { c.entry(id).status, c.entry(id).createdAt = Active, "forged" }

	at(racyWindow / 2)
	through(t, c, nil)
	forge()
	if got := through(t, c, nil); got[0].CreatedAt == "forged" {
		t.Errorf("an entry read %v after its file changed was trusted: %+v", racyWindow/2, got)
	}
	at(racyWindow + time.Second)
	through(t, c, nil) // read again: its read is now clearly after the change
	forge()
	if got := through(t, c, nil); got[0].CreatedAt != "forged" {
		t.Errorf("an entry read %v after its file changed was read again: %+v", racyWindow+time.Second, got)
	}
}

// TestListCacheActivity: the last activity of a session that does not run
// is read for idleGrace from when it was last seen running (or stopped,
// by its .session's time), its agents' last hooks may still write; then
// it is kept. Its .session says active (its tmux server died: it is
// lost) or stopped (a resume killed once tmux ran its agents, before it
// wrote the file): either was written long before it stopped running.
func TestListCacheActivity(t *testing.T) {
	for _, status := range []Status{Active, Stopped} {
		t.Run(string(status), func(t *testing.T) { testListCacheActivity(t, status) })
	}
}

func testListCacheActivity(t *testing.T, status Status) {
	root := t.TempDir()
	id := "11111111-1111-4111-8111-111111111111"
	writeSession(t, root, id, func(k, line string) string {
		if k == "STATUS" {
			return "STATUS=" + string(status)
		}
		return line
	})
	s, err := Load(root, id)
	must(t, err)
	launch, err := activity.Wiring{Events: true}.Start(s.ActivityDir(), time.Now().Add(-time.Hour))
	must(t, err)
	must(t, launch.Started())
	t0 := time.Now().Truncate(time.Second)
	event(t, s, "00", activity.Stop, t0.Add(-time.Minute))

	c := NewListCache(root)
	clock := t0.Add(time.Hour)
	c.now = func() time.Time { return clock }
	running := []layout.Ref{runs(root, id)}
	through(t, c, running)
	through(t, c, running) // seen running an hour after its .session was written
	for _, step := range []struct {
		after time.Duration // since it was last seen running
		event time.Duration // an event at that time since t0, 0 for none
		want  time.Duration // the last activity shown, since t0
	}{
		{time.Second, time.Second, time.Second}, // its tmux session is gone; a hook in flight writes
		{idleGrace / 2, idleGrace / 2, idleGrace / 2},
		{idleGrace + time.Second, 0, idleGrace / 2},
	} {
		clock = t0.Add(time.Hour + step.after)
		if step.event != 0 {
			event(t, s, "00", activity.Stop, t0.Add(step.event))
		}
		got := through(t, c, nil)
		if want := t0.Add(step.want).UTC().Format(time.RFC3339); got[0].LastActivity != want || got[0].Lost != (status == Active) {
			t.Errorf("%v after it stopped running: %+v, want last activity %s", step.after, got[0], want)
		}
	}
	event(t, s, "00", activity.Stop, t0.Add(idleGrace))
	clock = t0.Add(time.Hour + idleGrace + 2*time.Second)
	if got := through(t, c, nil); got[0].LastActivity != t0.Add(idleGrace/2).UTC().Format(time.RFC3339) {
		t.Errorf("the activity of a session idle for longer than %v was read again: %+v", idleGrace, got[0])
	}
	if got := through(t, c, running); got[0].LastActivity != t0.Add(idleGrace).UTC().Format(time.RFC3339) || got[0].Status != "active" {
		t.Errorf("running again: %+v", got[0])
	}
}

// TestListCacheFileIsReadSafely: a cache file that is not one this version
// wrote for this root, whole, in a directory of its own, is ignored; one
// that is a regular file is replaced by a good one, anything else (a link,
// a FIFO) left as it is, and nothing is written through a link.
func TestListCacheFileIsReadSafely(t *testing.T) {
	ids := []string{"11111111-1111-4111-8111-111111111111", "22222222-2222-4222-8222-222222222222"}
	cases := []struct {
		name    string
		plant   func(t *testing.T, root string, forged []byte) (outside string)
		replace bool // a good cache file replaces it
	}{
		{"a link to a forged cache", func(t *testing.T, root string, forged []byte) string {
			outside := filepath.Join(t.TempDir(), "list")
			must(t, os.WriteFile(outside, forged, 0o600))
			must(t, os.Symlink(outside, listCacheFile(root)))
			return outside
		}, false},
		{"a FIFO", func(t *testing.T, root string, _ []byte) string {
			must(t, unix.Mkfifo(listCacheFile(root), 0o600))
			return ""
		}, false},
		{"garbage", func(t *testing.T, root string, _ []byte) string {
			must(t, os.WriteFile(listCacheFile(root), []byte("\x00\xffnot a cache\n\t\t\n"), 0o600))
			return ""
		}, true},
		{"larger than the cap", func(t *testing.T, root string, forged []byte) string {
			huge := append(forged, make([]byte, maxListCache)...)
			must(t, os.WriteFile(listCacheFile(root), huge, 0o600))
			return ""
		}, true},
		{"another version's", func(t *testing.T, root string, forged []byte) string {
			must(t, os.WriteFile(listCacheFile(root), []byte(strings.Replace(string(forged), listCacheMagic, "mas list cache 1", 1)), 0o600))
			return ""
		}, true},
		{"another root's", func(t *testing.T, root string, forged []byte) string {
			must(t, os.WriteFile(listCacheFile(root), []byte(strings.Replace(string(forged), "root\t"+root, "root\t"+root+"x", 1)), 0o600))
			return ""
		}, true},
		{"cut short", func(t *testing.T, root string, forged []byte) string {
			must(t, os.WriteFile(listCacheFile(root), forged[:len(forged)-10], 0o600))
			return ""
		}, true},
		{"a line too many", func(t *testing.T, root string, forged []byte) string {
			lines := strings.SplitAfter(string(forged), "\n")
			extra := strings.Join(lines[:3], "") + lines[3] + strings.Join(lines[3:], "")
			must(t, os.WriteFile(listCacheFile(root), []byte(extra), 0o600))
			return ""
		}, true},
		{"its directory a link to a forged cache's", func(t *testing.T, root string, forged []byte) string {
			outside := t.TempDir()
			must(t, os.WriteFile(filepath.Join(outside, "list"), forged, 0o600))
			must(t, os.RemoveAll(listCacheDir(root)))
			must(t, os.Symlink(outside, listCacheDir(root)))
			return filepath.Join(outside, "list")
		}, false},
		{"its directory a file", func(t *testing.T, root string, _ []byte) string {
			must(t, os.RemoveAll(listCacheDir(root)))
			must(t, os.WriteFile(listCacheDir(root), nil, 0o600))
			return ""
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, id := range ids {
				writeSession(t, root, id, func(_, line string) string { return line })
			}
			warm := warmed(t, root, nil)
			// A cache this root's own listing would trust, but for what
			// it says of the sessions.
			forged := []byte(strings.ReplaceAll(string(warm.format(true)), "2026-01-02T03:04:05Z", "forged"))
			must(t, os.Remove(listCacheFile(root)))
			outside := tc.plant(t, root, forged)
			before, _ := os.Lstat(listCacheFile(root))

			if got, want := through(t, later(root), nil), truth(t, root, nil); !reflect.DeepEqual(got, want) {
				t.Errorf("listed:\n got %+v\nwant %+v", got, want)
			}
			if outside != "" {
				if data, _ := os.ReadFile(outside); string(data) != string(forged) {
					t.Errorf("the file outside was written: %q", data)
				}
				if entries, _ := os.ReadDir(filepath.Dir(outside)); len(entries) != 1 {
					t.Errorf("something was made beside the file outside: %v", entries)
				}
			}
			after, err := os.Lstat(listCacheFile(root))
			reread := later(root)
			reread.load()
			switch {
			case tc.replace && (err != nil || !after.Mode().IsRegular() || reread.kept() != len(ids)):
				t.Errorf("not replaced by a good cache: %v, %v, %d entries", after, err, reread.kept())
			case !tc.replace && before != nil && (after == nil || after.Mode() != before.Mode()):
				t.Errorf("replaced: %v, then %v", before, after)
			}
		})
	}
}

// TestListCacheTrustsStoppedSessions: the first listing of a process (a
// command) trusts what its cache file says of a stopped session that no
// command marked as changed, without a stat: a hand edit in place of its
// .session is not seen. It is seen by a second listing of the process
// (mas serve), once the cache file is removed or the session marked by
// hand, and by any listing while tmux runs a session of its name.
func TestListCacheTrustsStoppedSessions(t *testing.T) {
	a := oneID
	setup := func(t *testing.T) (root string, before []row) {
		root = warmedOne(t)
		before = truth(t, root, nil)
		edit(t, root, a, "CREATED_AT", "2027-01-02T03:04:05Z") // same size, in place
		return root, before
	}
	t.Run("a command's listing", func(t *testing.T) {
		root, before := setup(t)
		if got := through(t, later(root), nil); !reflect.DeepEqual(got, before) {
			t.Errorf("got %+v\nwant what the cache file says, %+v", got, before)
		}
	})
	t.Run("the second listing of a process", func(t *testing.T) {
		root, _ := setup(t)
		c := later(root)
		through(t, c, nil)
		listsTruth(t, c, root, nil, "")
	})
	t.Run("without the cache file", func(t *testing.T) {
		root, _ := setup(t)
		must(t, os.Remove(listCacheFile(root)))
		listsTruth(t, later(root), root, nil, "")
	})
	t.Run("a mark made by hand", func(t *testing.T) {
		root, _ := setup(t)
		must(t, os.WriteFile(filepath.Join(changedDir(root), a), nil, 0o600)) // touch
		listsTruth(t, later(root), root, nil, "")
	})
	t.Run("while tmux runs a session of its name", func(t *testing.T) {
		root, _ := setup(t)
		listsTruth(t, later(root), root, []layout.Ref{runs(root, a)}, "")
	})
}

// TestListCacheSeesCommandsWrites: a command that writes a stopped
// session's .session (Session.save) marks it first, so the next
// command's listing reads it, also when the command was killed between
// its mark and its write.
func TestListCacheSeesCommandsWrites(t *testing.T) {
	a, root := oneID, warmedOne(t)
	s, err := Load(root, a)
	must(t, err)
	s.CreatedAt = "2027-01-02T03:04:05Z"
	must(t, s.save())
	listsTruth(t, later(root), root, nil, "after a save")
	// Killed after its mark: the file is written later, or never.
	markChanged(filepath.Join(root, "sessions"), a)
	c := NewListCache(root)
	through(t, c, nil)
	edit(t, root, a, "CREATED_AT", "2028-01-02T03:04:05Z")
	listsTruth(t, NewListCache(root), root, nil, "a write after its mark")
}

// TestListCacheConsumesOldMarks: a listing removes a mark older than
// markerGrace once its cache file says what the session's file says, so
// that the next command trusts the session again; a younger mark stays,
// and a mark a command makes while a listing consumes it stays too.
func TestListCacheConsumesOldMarks(t *testing.T) {
	a, root := oneID, warmedOne(t)
	sessions := filepath.Join(root, "sessions")
	mark := filepath.Join(changedDir(root), a)
	markChanged(sessions, a)
	through(t, NewListCache(root), nil) // now: the mark is young
	if _, err := os.Lstat(mark); err != nil {
		t.Fatalf("a young mark was consumed: %v", err)
	}
	through(t, later(root), nil) // an hour later: old
	if _, err := os.Lstat(mark); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("an old mark was left: %v", err)
	}
	before := truth(t, root, nil)
	edit(t, root, a, "CREATED_AT", "2027-01-02T03:04:05Z")
	if got := through(t, later(root), nil); !reflect.DeepEqual(got, before) {
		t.Errorf("once its mark is consumed, a session is trusted again:\n got %+v\nwant %+v", got, before)
	}

	// Marked again between the listing and its consumption.
	markChanged(sessions, a)
	c := later(root)
	through(t, c, nil)
	markChanged(sessions, a)
	c.consume([]string{a}, time.Now().UnixNano()) // a listing that began before this mark
	if _, err := os.Lstat(mark); err != nil {
		t.Fatalf("a mark made during the consumption was removed: %v", err)
	}
}

// oneID is the session of warmedOne.
const oneID = "11111111-1111-4111-8111-111111111111"

// warmedOne is a new root with one stopped session, oneID, whose cache
// file trusts it.
func warmedOne(t *testing.T) string {
	root := t.TempDir()
	writeSession(t, root, oneID, func(_, line string) string { return line })
	warmed(t, root, nil)
	return root
}

// listsTruth checks that c lists root as a listing without a cache does.
func listsTruth(t *testing.T, c *ListCache, root string, running []layout.Ref, what string) {
	t.Helper()
	if got, want := through(t, c, running), truth(t, root, running); !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

// TestListCacheSlowListingWritesNothing: a listing whose cache is saved
// more than half of markerGrace after it began does not write the file:
// a listing made meanwhile may have consumed a mark this one saw before
// the write it announced.
func TestListCacheSlowListingWritesNothing(t *testing.T) {
	root := warmedOne(t)
	markChanged(filepath.Join(root, "sessions"), oneID)
	c := later(root)
	c.mu.Lock()
	if _, err := c.list(nil, true); err != nil {
		t.Fatal(err)
	}
	c.mu.Unlock()
	before, err := os.Stat(listCacheFile(root))
	must(t, err)
	c.now = func() time.Time { return time.Now().Add(time.Hour + markerGrace) }
	c.dirty = true
	c.Save()
	after, err := os.Stat(listCacheFile(root))
	must(t, err)
	if !os.SameFile(before, after) {
		t.Errorf("a slow listing wrote its cache") // a new file: WriteAtomic renames
	}
	if _, err := os.Lstat(filepath.Join(changedDir(root), oneID)); err != nil {
		t.Errorf("a slow listing consumed a mark: %v", err)
	}
}

// TestListCacheManySessions: a listing of thousands of sessions, which
// lists them on every core (par), shows what the files say, through the
// cache file and from memory, as sessions run, are edited, removed and
// added between listings.
func TestListCacheManySessions(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	root := sessionsFor(t, 2500)
	ids, err := IDs(root)
	if err != nil {
		t.Fatal(err)
	}
	running := []layout.Ref{runs(root, ids[7]), runs(root, ids[1800])}
	c := warmed(t, root, running)
	if c.kept() != len(ids) {
		t.Fatalf("%d entries kept of %d", c.kept(), len(ids))
	}
	markChanged(sessionsDir(root), ids[3])
	edit(t, root, ids[3], "CREATED_AT", "2027-01-02T03:04:05Z")
	markChanged(sessionsDir(root), ids[2400])
	edit(t, root, ids[2400], "STATUS", "active")
	must(t, os.RemoveAll(Dir(root, ids[1200])))
	writeSession(t, root, "00000000-0000-4000-8000-000000000000", func(_, line string) string { return line })
	running = append(running, runs(root, ids[9]))
	listsTruth(t, later(root), root, running, "through the cache file")
	listsTruth(t, c, root, running, "from memory")
}

// watchedCache is a cache of root in memory that watches its sessions
// (Watch) and has listed them three times: its next listing stats only
// what its watch tells changed; nil where there is no inotify.
func watchedCache(t *testing.T, root string) *ListCache {
	c := later(root)
	c.Watch()
	if c.watch == nil {
		return nil // no inotify: Watch does nothing
	}
	t.Cleanup(c.Close)
	for range 3 {
		through(t, c, nil)
	}
	return c
}

package isolated

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"mas/internal/safefile"
)

// Change markers let a command's first listing (what session list makes)
// trust the cached entry of a stopped session without a stat of its
// .session. A session that tmux does not run has no agents, so only a
// mas command or a person changes its files; every mas command writes
// .session through Session.save, which first leaves a marker named after
// the session in sessions/.cache/changed. A listing stats the .session
// of each marked session, as it stats those of sessions that run or are
// not stopped. A marker is written before the file it announces, so a
// command killed between the two still has its session read again.
//
// A marker is removed (consumed) by a listing once it is older than
// markerGrace, the listing has read the session's file since, and the
// cache file that says so is written: a command writes its .session
// right after its marker, so a marker that old announces no write still
// to come. A person who edits a stopped session's .session by hand
// leaves no marker: see docs/performance.md for what tells session list.

// changedDirName is the directory of the markers, in sessions/.cache.
const changedDirName = "changed"

// consumingSuffix names a marker being consumed: it still counts as one,
// so a listing killed while consuming it loses nothing.
const consumingSuffix = ".old"

// markerGrace is how old a marker must be before a listing may consume
// it: far more than a command takes from its marker to its write.
const markerGrace = time.Minute

func changedDir(root string) string { return filepath.Join(listCacheDir(root), changedDirName) }

// markChanged leaves the marker of session id under the sessions
// directory sessions, before its .session is written (see above), once
// a listing made sessions/.cache (before, no cache file trusts anything:
// see Save). A marker that cannot be written (a full disk) removes the
// cache file instead, so that the next listing stats every session; that
// failing too, the write goes on: listing is no reason to refuse a stop.
// A .cache that is a link or a file is left alone: no listing reads it.
func markChanged(sessions, id string) {
	cache := filepath.Join(sessions, ".cache")
	if _, err := os.Lstat(cache); errors.Is(err, os.ErrNotExist) {
		return // never listed: no cache trusts anything (see Save)
	}
	if safefile.CheckDir(cache) != nil {
		return // not one a listing reads (a link, a file)
	}
	dir := filepath.Join(cache, changedDirName)
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		dir = "" // failed: the cache file goes
	}
	if dir != "" && safefile.CheckDir(dir) == nil &&
		safefile.WriteAtomic(filepath.Join(dir, id), nil, 0o600) == nil {
		return
	}
	os.Remove(filepath.Join(cache, "list"))
}

// readMarkers returns the sessions marked as changed, each with the
// modification time of its newest marker (Unix ns); ok false when the
// markers cannot be read (a link, a file in the directory's place), then
// nothing may be trusted without a stat.
func (c *ListCache) readMarkers() (marks map[string]int64, ok bool) {
	return readMarkers(c.root)
}

// readMarkers is ListCache.readMarkers of root's cache.
func readMarkers(root string) (marks map[string]int64, ok bool) {
	if safefile.CheckDir(listCacheDir(root)) != nil {
		return nil, false
	}
	dir, err := os.OpenFile(changedDir(root), os.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil, true
	}
	if err != nil {
		return nil, false
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return nil, false
	}
	marks = map[string]int64{}
	for _, name := range names {
		id := strings.TrimSuffix(name, consumingSuffix)
		if !IsID(id) {
			continue // a writer's temporary file
		}
		var st unix.Stat_t
		if unix.Fstatat(int(dir.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			continue // consumed meanwhile
		}
		marks[id] = max(marks[id], st.Mtim.Nano())
	}
	return marks, true
}

// consumable returns the markers of marks that this listing, started at
// start, may consume once its cache file is written: older than
// markerGrace, of a session that is gone, read every time, or whose entry
// has settled.
func (c *ListCache) consumable(marks map[string]int64, start int64) []string {
	var out []string
	for id, at := range marks {
		if at >= start-int64(markerGrace) {
			continue
		}
		if ce := c.entry(id); ce == nil || ce.key.settled(ce.readAt) {
			out = append(out, id)
		}
	}
	return out
}

// consume removes the markers of ids, each only if no command marked
// its session again since it was read: a marker is first renamed aside,
// and put back when it turns out to be newer than markerGrace.
func (c *ListCache) consume(ids []string, start int64) {
	dir := changedDir(c.root)
	for _, id := range ids {
		mark, aside := filepath.Join(dir, id), filepath.Join(dir, id+consumingSuffix)
		if err := os.Rename(mark, aside); err != nil && !errors.Is(err, os.ErrNotExist) {
			continue
		}
		var st unix.Stat_t
		if unix.Fstatat(unix.AT_FDCWD, aside, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
			continue
		}
		if st.Mtim.Nano() >= start-int64(markerGrace) {
			// Marked again meanwhile: put back (a link never replaces a
			// newer marker), unless a newer one is there already; left
			// aside, it still counts.
			if err := os.Link(aside, mark); err != nil && !errors.Is(err, os.ErrExist) {
				continue
			}
		}
		os.Remove(aside)
	}
}

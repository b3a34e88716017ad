package isolated

import (
	"errors"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"mas/internal/activity"
	"mas/internal/layout"
	"mas/internal/par"
)

// A ListCache keeps what List parsed of each session, so that a listing
// costs what changed since the last one rather than what exists: a
// session whose .session is the file it was parsed from, by its stat key
// (device, inode, size, mode, change and modification times), is not
// read again, and the sessions directory, when its own key is unchanged,
// holds the entries it held, so it is not listed again either. What tmux
// runs is asked every time.
//
// A key is trusted only once its file's change time is clearly older than
// the moment the file was read (racyWindow): a file changed twice within
// one tick of the filesystem's clock keeps its key, and the second change
// would go unseen (git's "racy index" problem). A session whose file
// cannot be read, or says "creating", is read again every time: whether
// its creator still works changes no file.
//
// What the agents of a session report (package activity) changes while
// they run; a session that does not run has none to report, so its last
// activity is kept once it has not run for idleGrace (its agents' last
// hooks have ended), and read every time before.
//
// The cache lives in memory for a process that lists many times (mas
// serve) and in sessions/.cache/list between processes; a file there
// that is not one this version wrote, whole, for this root is ignored and
// replaced.
type ListCache struct {
	mu       sync.Mutex
	now      func() time.Time // the wall clock, which file times follow
	root     string
	sessions string // root's sessions directory
	read     bool   // the file was read, or found missing or unusable
	// dirty tells that the file is behind the memory.
	dirty bool

	dir   fileKey // of the sessions directory when it was listed
	dirAt int64   // when, in Unix ns
	// ids are the sessions directory's entries named like sessions,
	// sorted, each with what the cache keeps of it.
	ids     []cachedID
	removal bool // the listing held a directory a removal left
	// listed tells that this process listed the sessions directory, or
	// found it unchanged since the last listing.
	listed bool
	// listings counts this process's listings: its first trusts what
	// cannot have changed (trusted), the next ones stat every .session,
	// or those that watch tells may have changed (Watch).
	listings int
	watch    *sessionWatch // nil: none
	// consumed are the change markers the next Save removes once the
	// cache file says what their sessions' files say; start when the
	// last listing began (Unix ns).
	consumed []string
	start    int64
	// file is the key of the cache file as it was read (zero: none
	// was), unmarked that the last listing found no command's mark: see
	// Stamp.
	file     fileKey
	unmarked bool
}

// cachedID is an entry of the sessions directory named like a session,
// with what the cache keeps of it: no map by id, since a listing goes
// through them all in order.
type cachedID struct {
	id    string
	dir   bool        // a directory, not a link or another file
	entry *cacheEntry // nil: nothing kept
}

// entry is the entry of session id, nil when the cache keeps none.
func (c *ListCache) entry(id string) *cacheEntry {
	i, found := slices.BinarySearchFunc(c.ids, id, func(e cachedID, id string) int { return strings.Compare(e.id, id) })
	if !found {
		return nil
	}
	return c.ids[i].entry
}

// cacheEntry is what a session's .session said, with the key of the file
// it was read from, and its activity while it does not run.
type cacheEntry struct {
	key       fileKey
	readAt    int64 // Unix ns, taken before key
	status    Status
	createdAt string
	// idleSince is since when its agents cannot have reported anything
	// (Unix ns; 0: it ran when last listed, or none was listed yet);
	// lastAt when last was read (0: never), last its last activity.
	idleSince, lastAt int64
	last              string
}

// fileKey tells a file apart from the file it was: any write, rename,
// chmod or replacement changes one of its fields.
type fileKey struct {
	dev, ino     uint64
	size         int64
	mode         uint32
	mtime, ctime int64
}

const (
	// racyWindow is how much older than its read a file's change time
	// must be for its key to be trusted: more than any filesystem's
	// timestamp granularity.
	racyWindow = 2 * time.Second
	// idleGrace is how long after its agents stopped a session's activity
	// is still read: a hook that was running as they were killed may
	// still write (a hook exits within 3 s whatever happens), and an
	// agent may take a moment to end.
	idleGrace = 10 * time.Second
	// maxCachedField caps a field the cache keeps; a session with a longer
	// one (a hand-edited CREATED_AT) is read every time.
	maxCachedField = 256
)

// NewListCache returns an empty cache for root's sessions; List reads its
// file, if any, on first use.
func NewListCache(root string) *ListCache {
	return &ListCache{now: time.Now, root: root, sessions: sessionsDir(root)}
}

// Root is the root whose sessions c keeps.
func (c *ListCache) Root() string { return c.root }

// settled tells whether a key read at readAt can be trusted (racyWindow).
func (k fileKey) settled(readAt int64) bool { return k.ctime < readAt-int64(racyWindow) }

// statAt is the key of the file name, relative to the open directory dirfd,
// without following a link at its end; ok false when it cannot be stat'ed.
func statAt(dirfd int, name string) (k fileKey, ok bool) {
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return k, false
	}
	return fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size, mode: uint32(st.Mode),
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano()}, true
}

// listAs is List's sessions (not its orphans) through the cache, each as
// view makes it of its Listed (a caller that keeps thousands of views
// keeps no Listed), and the sessions' ids: running is what tmux runs,
// known false when tmux could not be asked (then nothing of the activity
// is kept).
func listAs[T any](c *ListCache, running []layout.Ref, known bool, view func(Listed) T) (_ []T, ids []string, _ error) {
	if !c.read {
		c.load()
	}
	start := c.now().UnixNano()
	c.start, c.consumed = start, nil
	dir, err := os.OpenFile(sessionsDir(c.root), os.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW, 0)
	if errors.Is(err, os.ErrNotExist) {
		c.forget()
		return nil, nil, nil
	}
	if err != nil {
		if cerr := checkSessionsDir(c.root); cerr != nil {
			return nil, nil, cerr // a link or a file: said as IDs says it
		}
		return nil, nil, err
	}
	defer dir.Close()
	dirfd := int(dir.Fd())
	entries, read, err := c.listDir(dir, dirfd, start)
	if err != nil {
		return nil, nil, err
	}
	keys := make([]statKey, len(entries))
	marks, marksOK := c.readMarkers()
	c.unmarked = marksOK && len(marks) == 0
	switch c.listings++; {
	case c.listings == 1 && marksOK:
		c.trust(entries, keys, marks, running)
	case c.listings > 1 && c.watch != nil:
		// From the second listing, whose stats see what changed before
		// the process began, which no watch can tell.
		c.trustWatched(entries, keys, read, start)
	}
	// What was trusted is known before the others are stat'ed.
	trusted := make([]bool, len(keys))
	for i, k := range keys {
		trusted[i] = k.ok
	}
	statSessions(dirfd, entries, keys)
	// Each session apart from the others, on every core: the sessions'
	// entries are theirs alone, and what changed is told per part.
	out := make([]T, len(entries))
	ids = make([]string, len(entries))
	changed := make([]bool, par.Parts(len(entries), sessionsPerPart))
	par.Do(len(entries), sessionsPerPart, func(part, from, to int) {
		for i := from; i < to; i++ {
			l, ch := c.session(&entries[i], keys[i], running, known, start)
			l.Trusted = trusted[i]
			out[i], ids[i] = view(l), entries[i].id
			changed[part] = changed[part] || ch
		}
	})
	c.dirty = c.dirty || slices.Contains(changed, true)
	if marksOK {
		c.consumed = c.consumable(marks, start)
	}
	return out, ids, nil
}

// trust sets, in keys, the cached key of each session of ids whose
// entry cannot have changed since it was read, so that it is not stat'ed:
// a session that was stopped, whose file had settled and whose agents'
// last activity was kept, that tmux does not run and that no command
// marked as changed since (marks). Only a person's hand edit changes
// such a session's .session; the next listing of a process that lists
// again (mas serve) sees it, as does one without the cache file.
func (c *ListCache) trust(ids []cachedID, keys []statKey, marks map[string]int64, running []layout.Ref) {
	runs := make(map[string]bool, len(running)) // by the id's part of their TmuxName
	for _, r := range running {
		if short, ok := strings.CutPrefix(r.Name, tmuxPrefix); ok {
			runs[short] = true
		}
	}
	for i, e := range ids {
		ce := e.entry
		if _, marked := marks[e.id]; marked || !e.dir || ce == nil || ce.status != Stopped || !ce.key.settled(ce.readAt) ||
			ce.lastAt == 0 || ce.lastAt-ce.idleSince < int64(idleGrace) || runs[e.id[:tmuxIDLen]] {
			continue
		}
		keys[i] = statKey{key: ce.key, ok: true}
	}
}

// forget empties the cache of a root that has no sessions directory.
func (c *ListCache) forget() {
	if len(c.ids) > 0 {
		c.ids, c.dir, c.dirty = nil, fileKey{}, true
	}
	c.listed, c.removal = true, false
}

// listDir returns the entries of the sessions directory, open as dir
// (descriptor dirfd), named like sessions, sorted: the cached ones when
// the directory's key is unchanged and settled, else read again (read),
// each with what the cache kept of it.
func (c *ListCache) listDir(dir *os.File, dirfd int, start int64) (_ []cachedID, read bool, _ error) {
	key, ok := statAt(dirfd, ".")
	if ok && key == c.dir && key.settled(c.dirAt) {
		c.listed = true
		return c.ids, false, nil
	}
	entries, err := dir.ReadDir(-1)
	if err != nil {
		return nil, true, err
	}
	slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	ids, removal := []cachedID{}, false
	old := c.ids // sorted too: walked beside the new ones
	for _, e := range entries {
		switch name := e.Name(); {
		case IsID(name):
			for len(old) > 0 && old[0].id < name {
				old = old[1:]
			}
			var ce *cacheEntry
			if len(old) > 0 && old[0].id == name {
				ce = old[0].entry
			}
			ids = append(ids, cachedID{id: name, dir: e.Type().IsDir(), entry: ce})
		case strings.HasPrefix(name, removingPrefix):
			removal = true
		}
	}
	c.ids, c.removal, c.listed, c.dirty = ids, removal, true, true
	c.dir, c.dirAt = key, start
	if !ok {
		c.dir = fileKey{}
	}
	return ids, true, nil
}

// session lists one session, e, whose .session's key is k: from the
// cache when k is the key of the file its entry was parsed from, else
// read (describe) and kept when it can be; changed tells that what the
// cache keeps of it changed. It changes e and its entry alone, so that
// sessions are listed at once.
func (c *ListCache) session(e *cachedID, k statKey, running []layout.Ref, known bool, start int64) (l Listed, changed bool) {
	if !e.dir {
		return describe(c.root, e.id, running, known), e.put(nil) // a link or a file: an error, said as ever
	}
	if ce := e.entry; k.ok && ce != nil && ce.key == k.key && k.key.settled(ce.readAt) {
		s := derivedIn(c.sessions, c.root, e.id)
		s.Status, s.CreatedAt = ce.status, ce.createdAt
		l = reconciled(&s, noCreator, running, known) // its creator matters only while it says creating
		return l, ce.withActivity(&l, false, known, start)
	}
	l, s := describeRead(c.root, e.id, running, known)
	if !k.ok || s == nil || !cacheable(s) {
		return l, e.put(nil)
	}
	ce := &cacheEntry{key: k.key, readAt: start, status: s.Status, createdAt: s.CreatedAt}
	e.put(ce)
	ce.withActivity(&l, true, known, start)
	return l, true
}

// statKey is what statAt tells.
type statKey struct {
	key fileKey
	ok  bool
}

// statSessions stats, into keys, the .session of each of ids, a
// directory of the sessions directory open as dirfd, whose key is not set
// (trusted): on every core when there are many, since these stats are
// most of what such a listing costs.
func statSessions(dirfd int, ids []cachedID, keys []statKey) {
	var todo []int
	for i := range ids {
		if ids[i].dir && !keys[i].ok {
			todo = append(todo, i)
		}
	}
	par.Do(len(todo), statsPerPart, func(_, from, to int) {
		for _, i := range todo[from:to] {
			keys[i].key, keys[i].ok = statAt(dirfd, ids[i].id+"/.session")
		}
	})
}

const (
	// statsPerPart is the fewest stats worth a goroutine of their own,
	// sessionsPerPart the fewest sessions listed from the cache.
	statsPerPart    = 500
	sessionsPerPart = 1000
)

// put keeps ce as e's entry, or forgets e's entry when ce is nil; it
// tells whether that changed the cache.
func (e *cachedID) put(ce *cacheEntry) bool {
	changed := e.entry != ce
	e.entry = ce
	return changed
}

// cacheable tells whether what s's file says may be kept: a session that
// is being created is read every time (see describe), and a field the
// cache file cannot hold is not kept.
func cacheable(s *Session) bool {
	return (s.Status == Active || s.Status == Stopped) && plainField(s.CreatedAt)
}

// plainField tells whether the cache file can hold s as a field.
func plainField(s string) bool {
	return len(s) <= maxCachedField && !strings.ContainsAny(s, "\t\n")
}

// withActivity sets l's Activity, the summary of what its agents
// reported: read while its agents run and for idleGrace after, then kept.
// fresh tells that ce was read from its file by this listing; changed
// that ce changed.
func (ce *cacheEntry) withActivity(l *Listed, fresh, known bool, now int64) (changed bool) {
	switch {
	case !known: // whether its agents run is not known: read by SessionView
		return false
	case l.Status == Active:
		if ce.idleSince != 0 || ce.lastAt != 0 {
			ce.idleSince, ce.lastAt, ce.last, changed = 0, 0, "", true
		}
		return changed // read by SessionView
	case ce.idleSince == 0:
		ce.idleSince, changed = now, true
		if fresh && ce.status == Stopped && ce.key.mtime < now {
			// Written by the stop that killed its agents (or by
			// hand), unless it was seen running since.
			ce.idleSince = ce.key.mtime
		}
	}
	if ce.lastAt != 0 && ce.lastAt-ce.idleSince >= int64(idleGrace) {
		if sum, ok := ce.summary(); ok {
			l.Activity, l.ActivityKnown = sum, true
			return changed
		}
	}
	sum := activity.Summarize(l.ActivityDir())
	l.Activity, l.ActivityKnown = sum, true
	ce.lastAt, ce.last = now, ""
	if !sum.Last.IsZero() {
		ce.last = sum.Last.UTC().Format(time.RFC3339Nano)
	}
	return true
}

// summary is the activity ce keeps: its last activity alone, all that a
// session that does not run shows.
func (ce *cacheEntry) summary() (activity.Summary, bool) {
	var sum activity.Summary
	if ce.last == "" {
		return sum, true
	}
	last, err := time.Parse(time.RFC3339Nano, ce.last)
	sum.Last = last
	return sum, err == nil
}

// Removals is Removals of c's root, without reading the sessions
// directory again when this process listed it and saw none there.
func (c *ListCache) Removals() ([]Removal, error) {
	c.mu.Lock()
	none := c.listed && !c.removal
	c.mu.Unlock()
	if none {
		return nil, nil
	}
	return Removals(c.root)
}

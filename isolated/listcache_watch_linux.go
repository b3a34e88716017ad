package isolated

import (
	"bytes"
	"encoding/binary"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"mas/internal/safefile"
)

// A sessionWatch tells a ListCache that lists again and again (mas serve)
// which .session files may have changed since its last listing, so that
// it stats those alone: inotify watches each session's directory, and a
// .session written in place, replaced by a rename, chmod'ed or removed
// is an event of that watch. A session whose directory is not watched
// (inotify is out of watches, or the directory was just listed) is
// stat'ed, as every session is when the kernel's queue overflowed.
//
// A watch is added before the .session it watches is stat'ed, so that a
// change after the stat is an event of the next listing; a change that
// keeps the file's key within racyWindow of its read is still told by
// the key's settling (ListCache.session), as without the watch.
//
// A watch is of a directory, not of its name: when the sessions
// directory changed (a session added, removed, renamed or replaced, or
// the directory itself replaced) or the kernel dropped events, every
// watch is dropped and made again, before the stats of that listing.
//
// Every fullSweep the listing stats every .session all the same: a
// file changed through another of its names (a hard link), or on another
// machine of a network filesystem, is no event here.
type sessionWatch struct {
	fd   int
	wds  map[string]int32 // by session id
	ids  map[int32]string
	seen map[string]bool // sessions whose watch had an event since the last listing
	// overflow tells that the kernel dropped events since the last
	// listing: every session is stat'ed.
	overflow bool
	swept    int64  // when every .session was last stat'ed (Unix ns)
	limit    int    // the most watches it takes (watchLimit)
	buf      []byte // drain's, kept: a listing every few seconds
}

// watchLimit is the most watches a sessionWatch takes: an eighth of what
// the kernel lets the user have (fs.inotify.max_user_watches), which
// editors and build tools share; the sessions past it are stat'ed.
func watchLimit() int {
	data, err := safefile.ReadFile("/proc/sys/fs/inotify/max_user_watches", 64)
	n, convErr := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || convErr != nil || n <= 0 {
		return defaultWatchLimit
	}
	return n / 8
}

// defaultWatchLimit is watchLimit's when the kernel does not say: an
// eighth of its oldest default, 8192.
const defaultWatchLimit = 1024

// fullSweep is how often a watched listing stats every .session.
const fullSweep = 30 * time.Second

// sessionWatchMask is what changes a directory's .session, or the
// directory itself.
const sessionWatchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_MOVED_FROM |
	unix.IN_MOVED_TO | unix.IN_CREATE | unix.IN_DELETE | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_DONT_FOLLOW |
	unix.IN_ONLYDIR

// newSessionWatch returns a watch, nil when the kernel offers none.
func newSessionWatch() *sessionWatch {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil
	}
	return &sessionWatch{fd: fd, wds: map[string]int32{}, ids: map[int32]string{}, seen: map[string]bool{}, limit: watchLimit()}
}

// Watch makes c tell, from its second listing on, which sessions changed
// through inotify (see sessionWatch) rather than by a stat of every
// .session; Close ends it. Without inotify, c stats them all, as before.
func (c *ListCache) Watch() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watch == nil {
		c.watch = newSessionWatch()
	}
}

// Close ends c's watch, if any.
func (c *ListCache) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.watch != nil {
		unix.Close(c.watch.fd)
		c.watch = nil
	}
}

// drain reads the events the kernel queued: the sessions whose watch had
// one are seen, and a watch the kernel removed (its directory is gone or
// was moved) is forgotten.
func (w *sessionWatch) drain() {
	if w.buf == nil {
		w.buf = make([]byte, 64<<10)
	}
	buf := w.buf
	for {
		n, err := unix.Read(w.fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n <= 0 {
			if !errors.Is(err, unix.EAGAIN) {
				w.overflow = true // unreadable: trust nothing
			}
			return
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			// struct inotify_event: wd, mask, cookie, len, then the name.
			wd := int32(binary.NativeEndian.Uint32(buf[off:]))
			mask := binary.NativeEndian.Uint32(buf[off+4:])
			size := int(binary.NativeEndian.Uint32(buf[off+12:]))
			name := buf[off+unix.SizeofInotifyEvent : min(n, off+unix.SizeofInotifyEvent+size)]
			off += unix.SizeofInotifyEvent + size
			if mask&unix.IN_Q_OVERFLOW != 0 {
				w.overflow = true
				continue
			}
			id, ok := w.ids[wd]
			if !ok {
				continue
			}
			switch name := string(bytes.TrimRight(name, "\x00")); {
			case mask&(unix.IN_IGNORED|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0:
				w.seen[id] = true
				w.forget(id)
			case name == "" || name == ".session": // the directory itself (a chmod), or its .session
				w.seen[id] = true
			}
		}
	}
}

// reset drops every watch, for the listing to add them again: a new
// inotify instance, the old one closed with its watches.
func (w *sessionWatch) reset() bool {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return false
	}
	unix.Close(w.fd)
	w.fd = fd
	clear(w.wds)
	clear(w.ids)
	return true
}

// forget drops the watch of session id, for the next listing to add
// again.
func (w *sessionWatch) forget(id string) {
	if wd, ok := w.wds[id]; ok {
		unix.InotifyRmWatch(w.fd, uint32(wd))
		delete(w.ids, wd)
		delete(w.wds, id)
	}
}

// trusted tells whether session id's .session is unchanged since the
// last listing, by its watch: it had one then, and no event since.
func (w *sessionWatch) trusted(id string) bool {
	_, watched := w.wds[id]
	return watched && !w.seen[id] // after an overflow, trustWatched stats them all
}

// add watches the directory of session id under sessions, unless it is:
// what changes from now on is an event of the next listing.
func (w *sessionWatch) add(sessions, id string) {
	if _, ok := w.wds[id]; ok || len(w.wds) >= w.limit {
		return
	}
	wd, err := unix.InotifyAddWatch(w.fd, filepath.Join(sessions, id), sessionWatchMask)
	if err != nil {
		return // out of watches, or gone: stat'ed at every listing
	}
	if old, ok := w.ids[int32(wd)]; ok && old != id {
		delete(w.wds, old) // the same directory under another name: a rename
		w.seen[old] = true
	}
	w.wds[id], w.ids[int32(wd)] = int32(wd), id
}

// trustWatched sets, in keys, the cached key of each session of ids that
// its watch tells unchanged since the last listing (trusted), and watches
// the others before they are stat'ed; read tells that the sessions
// directory was read again, now is when the listing began.
func (c *ListCache) trustWatched(ids []cachedID, keys []statKey, read bool, now int64) {
	w := c.watch
	w.drain()
	if (read || w.overflow) && !w.reset() {
		c.watch = nil // no new instance: stat'ed, as without a watch
		unix.Close(w.fd)
		return
	}
	sweep := read || w.overflow || now-w.swept >= int64(fullSweep)
	for i := range ids {
		e := &ids[i]
		switch {
		case !e.dir:
		case !sweep && e.entry != nil && w.trusted(e.id):
			keys[i] = statKey{key: e.entry.key, ok: true}
		default:
			w.add(c.sessions, e.id)
		}
	}
	clear(w.seen)
	w.overflow = false
	if sweep {
		w.swept = now
	}
}

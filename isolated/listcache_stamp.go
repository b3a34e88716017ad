package isolated

import (
	"strings"

	"golang.org/x/sys/unix"
)

// A Stamp tells whether what a listing of a root's sessions read can have
// changed since, but for what ListCache trusts (a hand edit of a stopped
// session's .session): it is the key of the sessions directory and the
// key of the cache file, taken when no command had marked a session.
// Every mas command that changes a session marks it, or adds or removes a
// directory; every listing that finds something changed rewrites the
// cache file. session list keeps it with the table it printed (see
// package cli), to print that table again while nothing it was made of
// changed.
type Stamp struct {
	root      string
	dir, list fileKey
}

// Stamp is the stamp of c's last listing; false when a later one could
// not tell it unchanged: that listing found a command's mark or an
// interrupted removal, the sessions directory or the cache file had
// changed less than racyWindow before (a second change within the same
// tick of a coarse clock would keep their keys), or the file is not the
// one it read, or says less than the memory (it was rewritten by this
// listing's Save, or by another process).
func (c *ListCache) Stamp() (Stamp, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.listings == 0 || !c.listed || !c.unmarked || c.removal || c.dirty || c.dir == (fileKey{}) || !c.dir.settled(c.start) ||
		c.file == (fileKey{}) || !c.file.settled(c.start) {
		return Stamp{}, false
	}
	if now, ok := lstatKey(listCacheFile(c.root)); !ok || now != c.file {
		return Stamp{}, false
	}
	return Stamp{root: c.root, dir: c.dir, list: c.file}, true
}

// StampNow is the stamp of root as it is now; false when a command has
// marked a session (or the marks cannot be read), or a key cannot be
// taken. The marks are read first: a listing writes the cache file
// before it removes a mark it consumed (Save), so a mark gone by the time
// it is looked for has left a cache file with a new key.
func StampNow(root string) (Stamp, bool) {
	marks, ok := readMarkers(root)
	if !ok || len(marks) > 0 {
		return Stamp{}, false
	}
	dir, dirOK := lstatKey(sessionsDir(root))
	list, listOK := lstatKey(listCacheFile(root))
	return Stamp{root: root, dir: dir, list: list}, dirOK && listOK
}

// String is s as ParseStamp reads it, without its root.
func (s Stamp) String() string { return s.dir.format() + "\t" + s.list.format() }

// ParseStamp reads a stamp of root from what String wrote.
func ParseStamp(root, s string) (Stamp, bool) {
	dir, list, found := strings.Cut(s, "\t")
	d, dirOK := parseKey(dir)
	l, listOK := parseKey(list)
	return Stamp{root: root, dir: d, list: l}, found && dirOK && listOK
}

// lstatKey is the key of the file at path, not of what a link there
// points to.
func lstatKey(path string) (fileKey, bool) {
	return statAt(unix.AT_FDCWD, path)
}

// CacheDir is the root's list cache directory, sessions/.cache, where a
// listing keeps what it may trust later; the first listing that saves
// its cache makes it.
func CacheDir(root string) string { return listCacheDir(root) }

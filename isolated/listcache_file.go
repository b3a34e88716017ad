package isolated

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"mas/internal/safefile"
)

// The cache file of a ListCache, sessions/.cache/list: a header line
// (listCacheMagic), the root, the sessions directory's key, one line per
// directory entry named like a session, with what its .session said when
// it could be kept, and an end line that counts them; fields are
// separated by tabs.
const listCacheMagic = "mas list cache 2"

// maxListCache caps what is read of the cache file: some 100,000 sessions.
const maxListCache = 32 << 20

func listCacheDir(root string) string  { return filepath.Join(sessionsDir(root), ".cache") }
func listCacheFile(root string) string { return filepath.Join(listCacheDir(root), "list") }

// load reads the cache file; one that cannot be read or parsed is
// ignored, and replaced when the cache is saved.
func (c *ListCache) load() {
	c.read = true
	if safefile.CheckDir(listCacheDir(c.root)) != nil {
		return
	}
	data, err := safefile.ReadFile(listCacheFile(c.root), maxListCache)
	if err != nil {
		c.dirty = !errors.Is(err, os.ErrNotExist)
		return
	}
	if !c.parse(data) {
		c.dir, c.dirAt, c.ids, c.entries, c.dirty = fileKey{}, 0, nil, map[string]*cacheEntry{}, true
	}
}

// Save writes the cache file when it is behind the memory, through
// safefile: atomically, never through a link, never over a special file.
// It writes in sessions/.cache, not in sessions, whose key tells List
// whether sessions were added or removed. A cache that cannot be written
// is no error: the next listing reads the sessions.
func (c *ListCache) Save() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.dirty || !c.listed || len(c.ids) == 0 || !plainField(c.root) {
		if !c.dirty && c.listed {
			c.consume(c.consumed, c.start) // the file says what the listing read
		}
		c.consumed = nil
		return
	}
	dir := listCacheDir(c.root)
	err := os.Mkdir(dir, 0o700)
	if err != nil && !errors.Is(err, os.ErrExist) {
		return
	}
	// Commands mark what they change only once the directory exists
	// (markChanged): what this listing read, a command that wrote meanwhile
	// unmarked may have changed, so it is not kept for the next process.
	created := err == nil
	if safefile.CheckDir(dir) != nil {
		return
	}
	if safefile.WriteAtomic(listCacheFile(c.root), c.format(!created), 0o600) == nil && !created {
		c.dirty = false
		c.consume(c.consumed, c.start)
	}
	c.consumed = nil
}

// format is the cache file of c, with what each .session said when
// entries, else with the directory's entries alone.
func (c *ListCache) format(entries bool) []byte {
	var b bytes.Buffer
	b.WriteString(listCacheMagic + "\nroot\t" + c.root + "\ndir\t")
	b.WriteString(c.dir.format() + "\t" + strconv.FormatInt(c.dirAt, 10) + "\t" + strconv.FormatBool(c.removal) + "\n")
	for _, e := range c.ids {
		b.WriteString("s\t" + e.id + "\t" + strconv.FormatBool(e.dir))
		if ce := c.entries[e.id]; ce != nil && entries {
			b.WriteString("\t" + ce.key.format() + "\t" + strconv.FormatInt(ce.readAt, 10) + "\t" + string(ce.status) + "\t" + ce.createdAt +
				"\t" + strconv.FormatInt(ce.idleSince, 10) + "\t" + strconv.FormatInt(ce.lastAt, 10) + "\t" + ce.last)
		}
		b.WriteByte('\n')
	}
	b.WriteString("end\t" + strconv.Itoa(len(c.ids)) + "\n")
	return b.Bytes()
}

func (k fileKey) format() string {
	return strconv.FormatUint(k.dev, 10) + " " + strconv.FormatUint(k.ino, 10) + " " + strconv.FormatInt(k.size, 10) + " " +
		strconv.FormatUint(uint64(k.mode), 10) + " " + strconv.FormatInt(k.mtime, 10) + " " + strconv.FormatInt(k.ctime, 10)
}

// parse reads a cache file into c; false when it is not one this version
// wrote whole for c's root. It splits by hand, without a slice per line:
// a listing reads every line.
func (c *ListCache) parse(data []byte) bool {
	rest, ok := strings.CutPrefix(string(data), listCacheMagic+"\nroot\t"+c.root+"\ndir\t")
	var line string
	if line, rest, ok = cutLine(rest, ok); !ok {
		return false
	}
	f := fields{line}
	c.dir, ok = parseKey(f.next())
	c.dirAt, ok = parseInt(f.next(), ok)
	removal := f.next()
	c.removal = removal == "true"
	if !ok || f.rest != "" || removal != "true" && removal != "false" {
		return false
	}
	c.ids = make([]cachedID, 0, strings.Count(rest, "\n"))
	for ok {
		if line, rest, ok = cutLine(rest, ok); !ok || strings.HasPrefix(line, "end\t") {
			break
		}
		id, ce, good := parseEntry(line)
		if !good || len(c.ids) > 0 && c.ids[len(c.ids)-1].id >= id.id {
			return false
		}
		c.ids = append(c.ids, id)
		if ce != nil {
			c.entries[id.id] = ce
		}
	}
	return ok && line == "end\t"+strconv.Itoa(len(c.ids)) && rest == ""
}

// cutLine cuts the first line off s; false when there is none, or ok is.
func cutLine(s string, ok bool) (line, rest string, _ bool) {
	line, rest, found := strings.Cut(s, "\n")
	return line, rest, ok && found
}

// fields are the tab-separated fields of a line of the cache file.
type fields struct{ rest string }

// next cuts the next field off f: "" when there is none.
func (f *fields) next() string {
	v, rest, _ := strings.Cut(f.rest, "\t")
	f.rest = rest
	return v
}

// parseEntry parses a session's line of the cache file.
func parseEntry(line string) (id cachedID, ce *cacheEntry, ok bool) {
	f := fields{line}
	kind, name, dir := f.next(), f.next(), f.next()
	if kind != "s" || !isCanonical(name) || dir != "true" && dir != "false" {
		return id, nil, false
	}
	id = cachedID{id: name, dir: dir == "true"}
	if f.rest == "" {
		return id, nil, true
	}
	ce = &cacheEntry{}
	ce.key, ok = parseKey(f.next())
	ce.readAt, ok = parseInt(f.next(), ok)
	ce.status, ce.createdAt = Status(f.next()), f.next()
	ce.idleSince, ok = parseInt(f.next(), ok)
	ce.lastAt, ok = parseInt(f.next(), ok)
	ce.last = f.next()
	return id, ce, ok && f.rest == "" && (ce.status == Active || ce.status == Stopped)
}

// parseKey parses fileKey.format.
func parseKey(s string) (k fileKey, ok bool) {
	var dev, ino, size, mode, mtime, ctime string
	dev, f, _ := strings.Cut(s, " ")
	ino, f, _ = strings.Cut(f, " ")
	size, f, _ = strings.Cut(f, " ")
	mode, f, _ = strings.Cut(f, " ")
	mtime, ctime, ok = strings.Cut(f, " ")
	d, err1 := strconv.ParseUint(dev, 10, 64)
	i, err2 := strconv.ParseUint(ino, 10, 64)
	m, err3 := strconv.ParseUint(mode, 10, 32)
	k = fileKey{dev: d, ino: i, mode: uint32(m)}
	k.size, ok = parseInt(size, ok && err1 == nil && err2 == nil && err3 == nil)
	k.mtime, ok = parseInt(mtime, ok)
	k.ctime, ok = parseInt(ctime, ok)
	return k, ok
}

// parseInt parses a decimal int64; ok stays false once false.
func parseInt(s string, ok bool) (int64, bool) {
	n, err := strconv.ParseInt(s, 10, 64)
	return n, ok && err == nil
}

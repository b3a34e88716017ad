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

// Load reads the cache file, unless c did already; List reads it when
// it must, and a caller may read it beforehand, while it waits for tmux.
func (c *ListCache) Load() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.read {
		c.load()
	}
}

// load reads the cache file; one that cannot be read or parsed is
// ignored, and replaced when the cache is saved.
func (c *ListCache) load() {
	c.read = true
	if safefile.CheckDir(listCacheDir(c.root)) != nil {
		return
	}
	// The file's key before and after the read: the same when what was
	// read is that file (Stamp).
	before, _ := lstatKey(listCacheFile(c.root))
	data, err := safefile.ReadString(listCacheFile(c.root), maxListCache)
	if err != nil {
		c.dirty = !errors.Is(err, os.ErrNotExist)
		return
	}
	if !c.parse(data) {
		c.dir, c.dirAt, c.ids, c.dirty = fileKey{}, 0, nil, true
		return
	}
	if after, ok := lstatKey(listCacheFile(c.root)); ok && after == before {
		c.file = after
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
	if c.now().UnixNano()-c.start > int64(markerGrace/2) {
		// Listed so long ago that a mark it saw may have been consumed
		// since, by a listing that read the file after it: what it
		// read is not written over what that listing wrote.
		c.consumed = nil
		return
	}
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
	// Where marks go, made now so that a person can mark a session too
	// (touch changed/<id>: see docs/files.md).
	os.Mkdir(changedDir(c.root), 0o700)
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
		if ce := e.entry; ce != nil && entries {
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
func (c *ListCache) parse(data string) bool {
	rest, ok := strings.CutPrefix(data, listCacheMagic+"\nroot\t"+c.root+"\ndir\t")
	var line string
	if line, rest, ok = cutLine(rest, ok); !ok {
		return false
	}
	f := fields{line, '\t'}
	c.dir, ok = parseKey(f.next())
	c.dirAt, ok = parseInt(f.next(), ok)
	removal := f.next()
	c.removal = removal == "true"
	if !ok || f.rest != "" || removal != "true" && removal != "false" {
		return false
	}
	// The sessions' lines, then the end line, which counts them.
	body, ok := strings.CutSuffix(rest, "\n")
	end := strings.LastIndexByte(body, '\n') + 1
	if !ok || body[end:] != "end\t"+strconv.Itoa(strings.Count(body, "\n")) {
		return false
	}
	ids, ok := parseEntries(body[:end])
	for i := 1; ok && i < len(ids); i++ {
		ok = ids[i-1].id < ids[i].id // sorted, each once
	}
	c.ids = ids
	return ok
}

// parseEntries parses sessions' lines of the cache file, each ending in
// a newline; false when one is not one.
func parseEntries(lines string) ([]cachedID, bool) {
	n := strings.Count(lines, "\n")
	ids := make([]cachedID, 0, n)
	slab := make([]cacheEntry, n) // one allocation for all the entries
	for lines != "" {
		line, rest, _ := strings.Cut(lines, "\n")
		lines = rest
		ce := &slab[len(ids)]
		id, has, ok := parseEntry(line, ce)
		if !ok {
			return nil, false
		}
		if has {
			id.entry = ce
		}
		ids = append(ids, id)
	}
	return ids, true
}

// cutLine cuts the first line off s; false when there is none, or ok is.
func cutLine(s string, ok bool) (line, rest string, _ bool) {
	line, rest, found := strings.Cut(s, "\n")
	return line, rest, ok && found
}

// fields are the fields of a string separated by sep: a line of the
// cache file by tabs, a key by spaces.
type fields struct {
	rest string
	sep  byte
}

// next cuts the next field off f: "" when there is none.
func (f *fields) next() string {
	i := strings.IndexByte(f.rest, f.sep)
	if i < 0 {
		v := f.rest
		f.rest = ""
		return v
	}
	v := f.rest[:i]
	f.rest = f.rest[i+1:]
	return v
}

// parseEntry parses a session's line of the cache file, into ce when it
// has an entry (has).
func parseEntry(line string, ce *cacheEntry) (id cachedID, has, ok bool) {
	f := fields{line, '\t'}
	kind, name, dir := f.next(), f.next(), f.next()
	if kind != "s" || !IsID(name) || dir != "true" && dir != "false" {
		return id, false, false
	}
	id = cachedID{id: name, dir: dir == "true"}
	if f.rest == "" {
		return id, false, true
	}
	ce.key, ok = parseKey(f.next())
	ce.readAt, ok = parseInt(f.next(), ok)
	ce.status, ce.createdAt = Status(f.next()), f.next()
	ce.idleSince, ok = parseInt(f.next(), ok)
	ce.lastAt, ok = parseInt(f.next(), ok)
	ce.last = f.next()
	return id, true, ok && f.rest == "" && (ce.status == Active || ce.status == Stopped)
}

// parseKey parses fileKey.format.
func parseKey(s string) (k fileKey, ok bool) {
	f := fields{s, ' '}
	var dev, ino, mode uint64
	dev, ok = parseUint(f.next(), true)
	ino, ok = parseUint(f.next(), ok)
	k.size, ok = parseInt(f.next(), ok)
	mode, ok = parseUint(f.next(), ok)
	k.mtime, ok = parseInt(f.next(), ok)
	k.ctime, ok = parseInt(f.next(), ok)
	k.dev, k.ino, k.mode = dev, ino, uint32(mode)
	return k, ok && mode <= 1<<32-1 && f.rest == ""
}

// parseInt parses a decimal int64, as strconv.FormatInt writes it; ok
// stays false once false. A listing parses some ten per session: by hand,
// without strconv's generality.
func parseInt(s string, ok bool) (int64, bool) {
	neg := strings.HasPrefix(s, "-")
	u, ok := parseUint(strings.TrimPrefix(s, "-"), ok)
	if !ok || u > 1<<63-1 {
		return 0, false
	}
	if neg {
		return -int64(u), true
	}
	return int64(u), true
}

// parseUint parses a decimal uint64 of no more than 19 digits (all that a
// file key holds), as strconv.FormatUint writes it; ok stays false once
// false.
func parseUint(s string, ok bool) (uint64, bool) {
	if !ok || len(s) == 0 || len(s) > 19 || len(s) > 1 && s[0] == '0' {
		return 0, false
	}
	var n uint64
	for i := range len(s) {
		d := s[i] - '0'
		if d > 9 {
			return 0, false
		}
		n = n*10 + uint64(d)
	}
	return n, true
}

// session list's table cache, sessions/.cache/table: the rows the last
// listing printed of the sessions it trusted (isolated.Listed.Trusted:
// stopped, settled, not marked since), as they were printed, with the
// stamp of that listing (isolated.Stamp), the ids of the few sessions it
// did not trust (the exceptions: in practice those that run, since a
// listing that read any other afresh changed the cache file and keeps no
// table), and the build that printed them. While the stamp holds (no
// command marked a session, no session was added or removed, no listing
// found anything changed), the build is the same and tmux runs none of
// those sessions, the next listing prints those rows again and lists
// afresh the exceptions alone, whose cells must fit the columns. Anything
// else lists everything, as ever: a host, the legacy session, a tmux
// session that could be an orphan, a cell wider than its column or not
// printable ASCII. A listing of thousands of stopped sessions then costs
// about what printing a file does.

package cli

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"mas/internal/layout"
	"mas/internal/remote"
	"mas/internal/safefile"
	"mas/isolated"
)

const (
	tableMagic = "mas session table 3"
	tableName  = "table"
	// maxTable caps what is read of the file: some 100,000 sessions.
	maxTable = 32 << 20
	// maxTableExceptions is the most sessions a table leaves to be
	// listed afresh: each is a read of its files.
	maxTableExceptions = 64
	// maxCellWidth caps a column's width: a path's longest.
	maxCellWidth = 4096
	// tablePadding is the columns' padding, as writeColumns lays them.
	tablePadding = 2
)

// keptTable is what a table's file says of it but its rows: tableFile
// writes it with the rows, parseTable reads it.
type keptTable struct {
	buildID, root, stamp string
	widths               []int
	exceptions           []string // sorted
}

// cachedTable is a table file read and checked.
type cachedTable struct {
	keptTable
	header string // the column names' line
	rows   string // the rows' lines, sorted by their sessions' ids
	data   string // the file
	starts []int  // where each row begins in rows
}

// tableListing is a text listing through the table cache: the table read
// (nil: none that holds), and the tmux sessions, listed meanwhile.
type tableListing struct {
	cl      *CommandLine
	root    string
	buildID string // "": none, no table kept
	table   *cachedTable
	running []layout.Ref
	listErr error
}

// listTable reads the root's table while tmux lists its sessions; when
// there is no table that holds, the list cache is read meanwhile instead,
// for the listing that follows.
func (cl *CommandLine) listTable(ctx context.Context) *tableListing {
	tl := &tableListing{cl: cl, root: cl.app.Root()}
	read := make(chan struct{})
	go func() {
		defer close(read)
		if tl.buildID = runningBuildID(); tl.buildID != "" {
			tl.table = readTable(tl.root, tl.buildID)
		}
		if tl.table == nil {
			cl.app.LoadListCache()
		}
	}()
	tl.running, tl.listErr = layout.ListSessions(ctx, cl.app.Tmux)
	<-read
	return tl
}

// runningBuildID is the Go build ID of the running binary, which tells
// it apart from any other build (its last part hashes the binary's
// content; a size and a modification time do not: builds often have the
// same size, and cp -p, tar and Nix keep times): read from the ELF note
// the linker writes in its first page, through /proc/self/exe, the file
// that runs even when another has replaced it on disk. "" where there is
// none (other systems, a build without an ID): no table is kept.
func runningBuildID() string {
	f, err := os.Open("/proc/self/exe")
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 16<<10)
	n, _ := io.ReadFull(f, head)
	return buildIDNote(head[:n])
}

// buildIDNote finds, in the head of an ELF file, the note of the Go
// build ID: name size 4, the ID's size, type 4, name "Go\0\0", the ID,
// as go build makes it: four hashes (of the main package's inputs and
// output, of the link's), each 20 characters of base64url. An ID set by
// hand (-ldflags=-buildid=redacted, as Bazel does) is the same for every
// build: "".
func buildIDNote(head []byte) string {
	const tag = "\x04\x00\x00\x00Go\x00\x00" // its type and name
	i := bytes.Index(head, []byte(tag))
	if i < 8 || !bytes.Equal(head[i-8:i-4], []byte{4, 0, 0, 0}) {
		return ""
	}
	size := int(binary.LittleEndian.Uint32(head[i-4:]))
	id := head[i+len(tag):]
	if size > len(id) || !goBuildID(string(id[:size])) {
		return ""
	}
	return string(id[:size])
}

// goBuildID tells whether id is a build ID as go build makes them.
func goBuildID(id string) bool {
	parts := strings.Split(id, "/")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if len(p) != 20 || strings.ContainsFunc(p, func(r rune) bool {
			return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '-' || r == '_')
		}) {
			return false
		}
	}
	return true
}

// print writes the table to w, with its exceptions listed afresh, when
// it can: false when the sessions must be listed. Its error is w's.
func (tl *tableListing) print(w io.Writer) (bool, error) {
	t := tl.table
	if t == nil || tl.listErr != nil || !t.onlyExceptionsRun(tl.root, tl.running) {
		return false, nil
	}
	if hosts, err := remote.Load(tl.root); err != nil || len(hosts) > 0 {
		return false, nil
	}
	if tl.cl.app.HasLegacyAmong(tl.running) {
		return false, nil
	}
	rows := make([][]string, len(t.exceptions))
	for i, id := range t.exceptions {
		if _, err := os.Lstat(isolated.Dir(tl.root, id)); err != nil {
			return false, nil // none of that id: the table was not written for this directory
		}
		s := tl.cl.app.SessionAmong(id, tl.running)
		rows[i] = sessionRow(listedSession{Session: &s}, nil)
	}
	if !fitsColumns(rows, t.widths) {
		return false, nil
	}
	return true, t.write(w, rows)
}

// onlyExceptionsRun tells whether every tmux session named like an
// isolated session's (mas-<8 characters of its id>) is an exception's or
// says it is another root's: one of a row's runs now (its row would
// change), one of no session's may be an orphan of the root.
func (t *cachedTable) onlyExceptionsRun(root string, running []layout.Ref) bool {
	for _, r := range running {
		switch {
		case !isolated.IsTmuxName(r.Name):
		case t.rowNamed(r.Name):
			return false
		case slices.ContainsFunc(t.exceptions, func(id string) bool { return isolated.TmuxName(id) == r.Name }):
		case !isolated.MarkedAsOthers(root, r):
			return false
		}
	}
	return true
}

// rowNamed tells whether a row's session has the tmux name name.
func (t *cachedTable) rowNamed(name string) bool {
	// The first row whose id is not before the name's 8 characters.
	i, _ := t.rowOf(strings.TrimPrefix(name, "mas-"))
	return i < len(t.starts) && isolated.TmuxName(t.rows[t.starts[i]:t.starts[i]+isolated.IDLen]) == name
}

// fitsColumns tells whether rows have as many cells as the table, each
// printable ASCII and, but the last, no wider than its column.
func fitsColumns(rows [][]string, widths []int) bool {
	for _, row := range rows {
		if len(row) != len(widths)+1 {
			return false
		}
		for i, c := range row {
			if !printableASCII(c) || i < len(widths) && len(c) > widths[i] {
				return false
			}
		}
	}
	return true
}

// printableASCII tells whether s holds printable ASCII alone.
func printableASCII(s string) bool {
	for i := range len(s) {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// write writes the table with rows, the exceptions', each where its
// session's id puts it.
func (t *cachedTable) write(w io.Writer, rows [][]string) error {
	b := make([]byte, 0, 64<<10)
	b = append(b, t.header...)
	from := 0
	for i, id := range t.exceptions {
		at := len(t.rows)
		if j, _ := t.rowOf(id); j < len(t.starts) {
			at = t.starts[j]
		}
		b = append(b, t.rows[from:at]...)
		b = appendColumns(b, rows[i:i+1], t.widths, tablePadding, true)
		from = at
	}
	if len(t.rows)-from > cap(b)-len(b) {
		// The rest as it is, without a copy.
		if _, err := w.Write(b); err != nil {
			return err
		}
		_, err := io.WriteString(w, t.rows[from:])
		return err
	}
	b = append(b, t.rows[from:]...)
	_, err := w.Write(b)
	return err
}

// readTable reads root's table, nil unless it holds: written by this
// build for root, under a stamp that is the root's now, and well formed.
func readTable(root, buildID string) *cachedTable {
	if safefile.CheckDir(isolated.CacheDir(root)) != nil {
		return nil // a link, or not a directory: neither read nor written
	}
	data, err := safefile.ReadString(filepath.Join(isolated.CacheDir(root), tableName), maxTable)
	if err != nil {
		return nil
	}
	t, ok := parseTable(data, root, buildID)
	if !ok {
		return nil
	}
	stamp, ok := isolated.ParseStamp(root, t.stamp)
	if now, nowOK := isolated.StampNow(root); !ok || !nowOK || now != stamp {
		return nil
	}
	return t
}

// parseTable parses a table cache file of root by build buildID; false
// when it is not one, whole.
func parseTable(data, root, buildID string) (*cachedTable, bool) {
	t := &cachedTable{keptTable: keptTable{buildID: buildID, root: root}, data: data}
	// The file's sum, of all that follows it: a table edited by hand,
	// or cut short, is not printed.
	rest, ok := strings.CutPrefix(data, tableMagic+"\n")
	sum, rest, ok := cutField(rest, "sum", ok)
	if !ok || sum != tableSum(rest) {
		return nil, false
	}
	rest, ok = strings.CutPrefix(rest, "build\t"+buildID+"\nroot\t"+root+"\nstamp\t")
	var line, widths, exceptions, count string
	t.stamp, rest, ok = cutLine(rest, ok)
	widths, rest, ok = cutField(rest, "widths", ok)
	exceptions, rest, ok = cutField(rest, "except", ok)
	count, rest, ok = cutField(rest, "rows", ok)
	line, t.rows, ok = cutLine(rest, ok)
	if !ok {
		return nil, false
	}
	t.header = line + "\n"
	for f := range strings.FieldsSeq(widths) {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 || n > maxCellWidth {
			return nil, false
		}
		t.widths = append(t.widths, n)
	}
	t.exceptions = strings.Fields(exceptions)
	if len(t.exceptions) > maxTableExceptions || !slices.IsSorted(t.exceptions) || slices.ContainsFunc(t.exceptions, func(id string) bool { return !isolated.IsID(id) }) {
		return nil, false
	}
	n, err := strconv.Atoi(count)
	if err != nil || n < 0 || n > maxTable/isolated.IDLen || !printableASCII(line) {
		return nil, false
	}
	t.starts = make([]int, 0, n)
	for at := 0; at < len(t.rows); {
		end := strings.IndexByte(t.rows[at:], '\n')
		if end < 0 {
			return nil, false
		}
		row := t.rows[at : at+end]
		// Each row begins with its session's id, then the padding;
		// sorted, each once; printed as it is, so printable.
		if len(row) <= isolated.IDLen || !isolated.IsID(row[:isolated.IDLen]) || row[isolated.IDLen] != ' ' || !printableASCII(row) ||
			len(t.starts) > 0 && t.rows[t.starts[len(t.starts)-1]:][:isolated.IDLen] >= row[:isolated.IDLen] {
			return nil, false
		}
		t.starts = append(t.starts, at)
		at += end + 1
	}
	if len(t.starts) != n || slices.ContainsFunc(t.exceptions, t.hasRow) {
		return nil, false
	}
	return t, true
}

// hasRow tells whether a row is session id's.
func (t *cachedTable) hasRow(id string) bool {
	_, found := t.rowOf(id)
	return found
}

// rowOf is the index of the first row whose session's id is not before
// id (len(t.starts) when none is), and whether it is id's.
func (t *cachedTable) rowOf(id string) (int, bool) {
	return slices.BinarySearchFunc(t.starts, id, func(start int, id string) int {
		return strings.Compare(t.rows[start:start+isolated.IDLen], id)
	})
}

// tableSum is the sum of a table file's text: its CRC-32C, in hex.
func tableSum(text string) string {
	var sum uint32
	buf := make([]byte, 32<<10) // the text through a buffer: not copied whole
	for text != "" {
		n := copy(buf, text)
		sum = crc32.Update(sum, castagnoli(), buf[:n])
		text = text[n:]
	}
	return sumHex(sum)
}

// castagnoli is the table of CRC-32C, which the processor computes where
// it can (crc32 makes it once, on first use).
func castagnoli() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) }

// sumHex is a table's sum as its file writes it: 8 hexadecimal digits.
func sumHex(sum uint32) string {
	const digits = "0123456789abcdef"
	var b [8]byte
	for i := range b {
		b[i] = digits[sum>>(28-4*i)&0xf]
	}
	return string(b[:])
}

// cutLine cuts the first line off s; false when there is none, or ok is.
func cutLine(s string, ok bool) (line, rest string, _ bool) {
	line, rest, found := strings.Cut(s, "\n")
	return line, rest, ok && found
}

// cutField cuts the line "name\tvalue" off s.
func cutField(s, name string, ok bool) (value, rest string, _ bool) {
	line, rest, ok := cutLine(s, ok)
	value, found := strings.CutPrefix(line, name+"\t")
	return value, rest, ok && found
}

// keep writes the table of a listing that printed rows (their header
// first) of sessions, when a later one can print it (keptOf) and the file
// does not say it already. A table that cannot be written is no error:
// the next listing lists everything.
func (tl *tableListing) keep(sessions []listedSession, rows [][]string, tmuxErr error, hosts []remote.Host, removals []isolated.Removal, removalsErr error) {
	if tl.buildID == "" || tmuxErr != nil || len(hosts) > 0 || len(removals) > 0 || removalsErr != nil || !printableASCII(tl.root) {
		return
	}
	t, kept, ok := tl.keptOf(sessions, rows)
	if !ok {
		return
	}
	data := tableFile(t, kept)
	if tl.table != nil && tl.table.data == string(data) {
		return
	}
	if safefile.CheckDir(isolated.CacheDir(tl.root)) == nil {
		safefile.WriteAtomic(filepath.Join(isolated.CacheDir(tl.root), tableName), data, 0o600)
	}
}

// keptOf is the table of a listing that printed rows of sessions, and
// the rows it keeps (the header first), when a later one can print it:
// this process's listing has a stamp, the list holds neither a host's
// session nor the legacy session nor an orphan, the sessions it did not
// trust are few and fit the columns of those it did, and every cell is
// printable ASCII.
func (tl *tableListing) keptOf(sessions []listedSession, rows [][]string) (keptTable, [][]string, bool) {
	stamp, ok := tl.cl.app.ListStamp()
	if !ok {
		return keptTable{}, nil, false
	}
	kept := [][]string{rows[0]}
	var exceptions []string
	var exceptionRows [][]string
	for i, s := range sessions {
		switch {
		case s.Host != "" || s.Mode != layout.Isolated || s.Status == isolated.Orphaned:
			return keptTable{}, nil, false
		case s.Trusted:
			kept = append(kept, rows[i+1])
		default:
			exceptions, exceptionRows = append(exceptions, s.SessionID), append(exceptionRows, rows[i+1])
		}
	}
	if len(exceptions) > maxTableExceptions || !allPrintable(kept) {
		return keptTable{}, nil, false
	}
	widths, _, ok := columnWidths(kept)
	if !ok || !fitsColumns(exceptionRows, widths) {
		return keptTable{}, nil, false
	}
	return keptTable{buildID: tl.buildID, root: tl.root, stamp: stamp.String(), widths: widths, exceptions: exceptions}, kept, true
}

// tableFile is the file of t with rows (the header first) laid out in
// its columns, made in one buffer: its sum written in its place once the
// text that follows is.
func tableFile(t keptTable, rows [][]string) []byte {
	head := tableMagic + "\nsum\t"
	b := make([]byte, 0, 4096)
	b = append(b, head+"00000000\nbuild\t"+t.buildID+"\nroot\t"+t.root+"\nstamp\t"+t.stamp+"\nwidths\t"...)
	text := len(head) + len("00000000\n")
	for i, w := range t.widths {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(w), 10)
	}
	b = append(b, "\nexcept\t"+strings.Join(t.exceptions, " ")+"\nrows\t"+strconv.Itoa(len(rows)-1)+"\n"...)
	b = appendColumns(b, rows, t.widths, tablePadding, true)
	copy(b[len(head):], sumHex(crc32.Checksum(b[text:], castagnoli())))
	return b
}

// allPrintable tells whether every cell of rows is printable ASCII.
func allPrintable(rows [][]string) bool {
	for _, row := range rows {
		for _, c := range row {
			if !printableASCII(c) {
				return false
			}
		}
	}
	return true
}

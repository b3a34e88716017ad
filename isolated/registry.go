package isolated

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"mas/internal/report"
	"mas/internal/safefile"
)

// The registry is two files under $ROOT/sessions, both written only while
// holding an exclusive flock on sessions/.lock: .sessions.index, a JSON
// list of sessions in the original tool's shape, and .index, an
// append-only journal of "<id>:<status>:<unix seconds>" lines. These two
// and the lock file are opened through safefile: a symbolic link or a special file in their
// place is refused, never followed.
const (
	indexName   = ".sessions.index"
	journalName = ".index"
	lockName    = ".lock"

	// maxIndexSize caps what is read of .sessions.index: 64,000 sessions
	// or so. A larger file is treated as corrupt and rebuilt from the
	// session directories, the source of truth.
	maxIndexSize = 16 << 20
	// lockWait bounds a wait for the registry lock.
	lockWait = 10 * time.Second
	// maxHolder caps the holder line of the lock file, written and read.
	maxHolder = 256
)

// removed is the journal's word for a session removed with its
// directory (session rm); no session has that status.
const removed Status = "removed"

type index struct {
	Version     string       `json:"version"`
	Sessions    []indexEntry `json:"sessions"`
	LastUpdated string       `json:"lastUpdated"`
}

type indexEntry struct {
	SessionID   string `json:"sessionId"`
	TmuxSession string `json:"tmuxSession"`
	Status      Status `json:"status"`
	CreatedAt   string `json:"createdAt"`
	WorkingDir  string `json:"workingDir"`
	// LastActivity is when an agent of the session last reported an
	// event (ISO-8601), "" before the first: see Session.LastActivity.
	LastActivity string `json:"lastActivity,omitempty"`
}

func sessionsDir(root string) string { return filepath.Join(root, "sessions") }

// ensureSessionsDir creates $ROOT/sessions with mode 0755 if needed. A
// sessions that is a symbolic link is refused: every write under it would
// land outside the root.
func ensureSessionsDir(root string) error {
	dir := sessionsDir(root)
	err := os.Mkdir(dir, 0o755)
	switch {
	case err == nil:
		return safefile.ChmodDir(dir, 0o755)
	case errors.Is(err, os.ErrExist):
		return checkSessionsDir(root)
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(root, 0o755); err != nil {
			return err
		}
		return ensureSessionsDir(root)
	}
	return err
}

// checkSessionsDir refuses a sessions directory that is a link or not a
// directory; one that does not exist is fine.
func checkSessionsDir(root string) error { return safefile.CheckDir(sessionsDir(root)) }

// versionCache is the file in root's sessions directory where a start
// remembers the tmux that passed its version check
// (tmux.CheckVersionCached); "" when that directory is a link or not a
// directory. Nothing makes the directory for it: the first start of a
// root checks the version by tmux -V.
func versionCache(root string) string {
	if checkSessionsDir(root) != nil {
		return ""
	}
	return filepath.Join(sessionsDir(root), ".tmux-version")
}

// LockTimeoutError is a registry lock that another process held for the
// whole wait.
type LockTimeoutError struct {
	Path   string
	Holder string // what the holder wrote in the lock file, or ""
	Wait   time.Duration
}

func (e *LockTimeoutError) Error() string {
	holder := "another process (it did not say which)"
	if e.Holder != "" {
		holder = e.Holder
	}
	return fmt.Sprintf("registry lock %s is held by %s; gave up after %v", e.Path, holder, e.Wait)
}

// locked runs fn while holding the registry lock, waiting for it at most
// lockWait.
func locked(ctx context.Context, root string, fn func() error) error {
	return lockedFor(ctx, root, lockWait, fn)
}

// lockedFor is locked with a given wait. The wait polls a non-blocking
// flock, so that ctx (Ctrl-C) ends it at once. The holder writes its pid
// and command into the lock file, for the error of a waiter that gives
// up, and empties it when it lets go.
func lockedFor(ctx context.Context, root string, wait time.Duration, fn func() error) error {
	if err := ensureSessionsDir(root); err != nil {
		return err
	}
	path := filepath.Join(sessionsDir(root), lockName)
	f, err := safefile.OpenInPlace(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("open registry lock: %w", err)
	}
	defer f.Close()
	deadline := time.Now().Add(wait)
	for delay := time.Millisecond; ; delay = min(2*delay, 20*time.Millisecond) {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("lock %s: %w", path, err)
		}
		if time.Now().After(deadline) {
			return &LockTimeoutError{Path: path, Holder: readHolder(f), Wait: wait}
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("wait for registry lock %s: %w", path, context.Cause(ctx))
		case <-t.C:
		}
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	// Who holds the lock is for people; a full disk must not fail the
	// command for it.
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(holderLine()), 0)
	}
	defer f.Truncate(0)
	return fn()
}

// holderLine says who holds the lock: "pid 1234: mas session create".
func holderLine() string {
	line := fmt.Sprintf("pid %d: mas %s", os.Getpid(), strings.Join(os.Args[1:], " "))
	return printable(strings.TrimSpace(line))
}

// readHolder reads what the holder wrote, at most maxHolder bytes, as one
// printable line; f was opened through safefile.
func readHolder(f *os.File) string {
	buf := make([]byte, maxHolder)
	n, _ := f.ReadAt(buf, 0)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	return printable(strings.TrimSpace(line))
}

// printable keeps at most maxHolder bytes of s and replaces what a
// terminal would interpret.
func printable(s string) string {
	if len(s) > maxHolder {
		s = s[:maxHolder]
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == 0xfffd || 0x80 <= r && r < 0xa0 {
			return '?'
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
}

// checkRegistry refuses, before anything is changed, a journal or an
// index that is a link or a special file, and a journal with another name
// (a hard link), which is appended to: writing them would fail half-way.
// The index is replaced, never written in place: another name of it keeps
// the old file.
func checkRegistry(root string) error {
	if err := safefile.CheckInPlace(filepath.Join(sessionsDir(root), journalName)); err != nil {
		return err
	}
	return safefile.CheckReplaceable(filepath.Join(sessionsDir(root), indexName))
}

func readIndex(root string) (*index, error) { return readIndexFile(root).decode() }

// indexFile is what was read of the index file: its bytes, or an error,
// or that there is none.
type indexFile struct {
	path    string
	data    []byte
	err     error
	missing bool
}

func readIndexFile(root string) indexFile {
	f := indexFile{path: filepath.Join(sessionsDir(root), indexName)}
	data, err := safefile.ReadFile(f.path, maxIndexSize)
	switch {
	case errors.Is(err, os.ErrNotExist):
		f.missing = true
	case errors.Is(err, safefile.ErrTooLarge):
		f.err = &corruptIndexError{f.path, err}
	case err != nil:
		f.err = fmt.Errorf("read session index: %w", err)
	default:
		f.data = data
	}
	return f
}

// decode is the index the file holds: an empty one when there is no file.
func (f indexFile) decode() (*index, error) {
	switch {
	case f.err != nil:
		return nil, f.err
	case f.missing:
		return &index{Version: "1.0", Sessions: []indexEntry{}}, nil
	}
	ix, err := unmarshalIndex(f.data)
	if err != nil {
		return nil, &corruptIndexError{f.path, err}
	}
	if ix.Sessions == nil {
		ix.Sessions = []indexEntry{}
	}
	return &ix, nil
}

// corruptIndexError is an index that is not the JSON we write, or one
// larger than maxIndexSize.
type corruptIndexError struct {
	path string
	err  error
}

func (e *corruptIndexError) Error() string { return fmt.Sprintf("%s is corrupt: %v", e.path, e.err) }

// readOrRebuildIndex reads the index; a corrupt one is rebuilt from the
// session directories, with a warning.
func readOrRebuildIndex(root string, warn *report.Reporter) (*index, error) {
	return readIndexFile(root).decodeOrRebuild(root, warn)
}

// decodeOrRebuild is decode, with a corrupt index rebuilt from the
// session directories of root.
func (f indexFile) decodeOrRebuild(root string, warn *report.Reporter) (*index, error) {
	ix, err := f.decode()
	var corrupt *corruptIndexError
	if errors.As(err, &corrupt) {
		warn.Warnf("%v; rebuilding it from the session directories", err)
		return rebuildIndex(root)
	}
	return ix, err
}

// rebuildIndex makes an index from the session directories, the source
// of truth; sessions whose .session cannot be read are left out.
func rebuildIndex(root string) (*index, error) {
	ids, err := IDs(root)
	if err != nil {
		return nil, err
	}
	ix := &index{Version: "1.0", Sessions: []indexEntry{}}
	for _, id := range ids {
		s, err := Load(root, id)
		if err != nil {
			continue
		}
		ix.Sessions = append(ix.Sessions, s.entry())
	}
	return ix, nil
}

func writeIndex(root string, ix *index, now time.Time) error {
	ix.LastUpdated = timestamp(now)
	return writeIndexFile(root, marshalIndex(ix))
}

// writeIndexFile replaces the index file by one that holds the pieces,
// one after the other, and a line break.
func writeIndexFile(root string, pieces ...[]byte) error {
	return safefile.WritePiecesAtomic(filepath.Join(sessionsDir(root), indexName), 0o644, append(pieces, []byte("\n"))...)
}

func appendJournal(root, id string, status Status, now time.Time) error {
	f, err := safefile.OpenInPlace(filepath.Join(sessionsDir(root), journalName), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("open session journal: %w", err)
	}
	_, err = fmt.Fprintf(f, "%s:%s:%d\n", id, status, now.Unix())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// record sets the status of a session in the index (and its lastActivity,
// when e has one; other fields stay), adding its entry when missing, and
// journals the change; status "" removes the entry (and
// journals "error", the end of a session that never became active).
func record(ctx context.Context, root string, e indexEntry, now time.Time, warn *report.Reporter) error {
	return locked(ctx, root, func() error { return recordLocked(root, e, Error, now, warn) })
}

// recordLocked is record for a caller that holds the registry lock; an
// entry removed (status "") is journaled as gone.
func recordLocked(root string, e indexEntry, gone Status, now time.Time, warn *report.Reporter) error {
	// Both files or neither.
	if err := checkRegistry(root); err != nil {
		return err
	}
	journal := e.Status
	if e.Status == "" {
		journal = gone
	}
	if err := updateIndex(root, e, now, warn); err != nil {
		return err
	}
	return appendJournal(root, e.SessionID, journal, now)
}

// updateIndex records e in the index (recorded). An index in the
// layout mas writes is changed where e's entry is, the other entries'
// bytes copied as they are (editIndexLayout); any other is read whole
// (rebuilt when corrupt) and written again.
func updateIndex(root string, e indexEntry, now time.Time, warn *report.Reporter) error {
	f := readIndexFile(root)
	if f.err == nil && !f.missing {
		if pieces, ok := editIndexLayout(f.data, e, timestamp(now)); ok {
			return writeIndexFile(root, pieces...)
		}
	}
	ix, err := f.decodeOrRebuild(root, warn)
	if err != nil {
		return err
	}
	ix.Sessions = recorded(ix.Sessions, e)
	return writeIndex(root, ix, now)
}

// recorded is the index's sessions with e recorded: the entry of its id
// (the first, should there be more) takes its status, and its
// lastActivity when it has one, or is taken out when its status is "";
// an id not there is added.
func recorded(sessions []indexEntry, e indexEntry) []indexEntry {
	i := slices.IndexFunc(sessions, func(x indexEntry) bool { return x.SessionID == e.SessionID })
	switch {
	case e.Status == "" && i >= 0:
		return slices.Delete(sessions, i, i+1)
	case e.Status == "":
		return sessions
	case i >= 0:
		sessions[i].Status = e.Status
		if e.LastActivity != "" {
			sessions[i].LastActivity = e.LastActivity
		}
		return sessions
	}
	return append(sessions, e)
}

func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

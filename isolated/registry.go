package isolated

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"mas/envfile"
)

// The registry is two files under $ROOT/sessions, both written only while
// holding an exclusive flock on sessions/.lock: .sessions.index, a JSON
// list of sessions in the original tool's shape, and .index, an
// append-only journal of "<id>:<status>:<unix seconds>" lines.
const (
	indexName   = ".sessions.index"
	journalName = ".index"
	lockName    = ".lock"
)

type index struct {
	Version     string       `json:"version"`
	Sessions    []indexEntry `json:"sessions"`
	LastUpdated string       `json:"lastUpdated"`
}

type indexEntry struct {
	SessionID   string `json:"sessionId"`
	TmuxSession string `json:"tmuxSession"`
	Status      string `json:"status"`
	CreatedAt   string `json:"createdAt"`
	WorkingDir  string `json:"workingDir"`
}

func sessionsDir(root string) string { return filepath.Join(root, "sessions") }

// ensureSessionsDir creates $ROOT/sessions with mode 0755 if needed.
func ensureSessionsDir(root string) error {
	dir := sessionsDir(root)
	err := os.Mkdir(dir, 0o755)
	switch {
	case err == nil:
		return os.Chmod(dir, 0o755)
	case errors.Is(err, os.ErrExist):
		return nil
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(root, 0o755); err != nil {
			return err
		}
		return ensureSessionsDir(root)
	}
	return err
}

// locked runs fn while holding the registry lock.
func locked(root string, fn func() error) error {
	if err := ensureSessionsDir(root); err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(sessionsDir(root), lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return fn()
}

func readIndex(root string) (*index, error) {
	path := filepath.Join(sessionsDir(root), indexName)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return &index{Version: "1.0", Sessions: []indexEntry{}}, nil
	}
	if err != nil {
		return nil, err
	}
	var ix index
	if err := json.Unmarshal(data, &ix); err != nil {
		return nil, &corruptIndexError{path, err}
	}
	if ix.Sessions == nil {
		ix.Sessions = []indexEntry{}
	}
	return &ix, nil
}

// corruptIndexError is an index that is not the JSON we write.
type corruptIndexError struct {
	path string
	err  error
}

func (e *corruptIndexError) Error() string { return fmt.Sprintf("%s is corrupt: %v", e.path, e.err) }

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
		ix.Sessions = append(ix.Sessions, indexEntry{SessionID: id, TmuxSession: s.TmuxName, Status: s.Status, CreatedAt: s.CreatedAt, WorkingDir: s.Dir})
	}
	return ix, nil
}

func writeIndex(root string, ix *index, now time.Time) error {
	ix.LastUpdated = timestamp(now)
	data, err := json.MarshalIndent(ix, "", "  ")
	if err != nil {
		return err
	}
	return envfile.WriteAtomic(filepath.Join(sessionsDir(root), indexName), append(data, '\n'), 0o644)
}

func appendJournal(root, id, status string, now time.Time) error {
	f, err := os.OpenFile(filepath.Join(sessionsDir(root), journalName), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%s:%s:%d\n", id, status, now.Unix())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// record sets the status of a session in the index, adding its entry when
// missing, and journals the change; status "" removes the entry (and
// journals "error", the end of a session that never became active).
func record(root string, e indexEntry, now time.Time, warn io.Writer) error {
	return locked(root, func() error {
		ix, err := readIndex(root)
		var corrupt *corruptIndexError
		if errors.As(err, &corrupt) {
			if warn != nil {
				fmt.Fprintf(warn, "mas: warning: %v; rebuilding it from the session directories\n", err)
			}
			ix, err = rebuildIndex(root)
		}
		if err != nil {
			return err
		}
		i := slices.IndexFunc(ix.Sessions, func(x indexEntry) bool { return x.SessionID == e.SessionID })
		journal := e.Status
		switch {
		case e.Status == "" && i >= 0:
			ix.Sessions = slices.Delete(ix.Sessions, i, i+1)
			journal = "error"
		case e.Status == "":
			journal = "error"
		case i >= 0:
			ix.Sessions[i].Status = e.Status
		default:
			ix.Sessions = append(ix.Sessions, e)
		}
		if err := writeIndex(root, ix, now); err != nil {
			return err
		}
		return appendJournal(root, e.SessionID, journal, now)
	})
}

func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

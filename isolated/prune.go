package isolated

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"mas/internal/layout"
	"mas/tmux"
)

// Prune removes what interrupted creations left, and nothing else: a
// session directory that is completely empty (a creator killed right
// after making it), and a session whose creator is gone, whose tmux
// session does not run, and whose .session reads fine and says
// "creating" (or was never written, next to a marker nobody holds). A
// session whose .session cannot be read, or is inconsistent, is reported
// to warn and left alone: a hand edit must never cost the work in it.
//
// Prune also repairs the index: it drops entries whose id is not a
// canonical UUID, repeated entries and entries whose directory is gone,
// and rebuilds a corrupt index from the session directories. It never
// removes a directory because of an index entry. It returns the ids it
// removed.
func Prune(ctx context.Context, c tmux.Client, root string, now time.Time, warn io.Writer) ([]string, error) {
	if err := checkSessionsDir(root); err != nil {
		return nil, err
	}
	if _, err := os.Lstat(sessionsDir(root)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	running, err := layout.ListSessions(ctx, c)
	if err != nil {
		return nil, err
	}
	names := layout.RefNames(running)
	var removed []string
	err = locked(ctx, root, func() error {
		// Nothing is removed that the journal could not record.
		if err := checkRegistry(root); err != nil {
			return err
		}
		ids, err := IDs(root)
		if err != nil {
			return err
		}
		for _, id := range ids {
			why, err := pruneReason(root, id, names)
			if err != nil {
				warnf(warn, "session %s left as it is: %v", id, err)
			}
			if why == "" {
				continue
			}
			if err := os.RemoveAll(Dir(root, id)); err != nil {
				return err
			}
			removed = append(removed, id)
		}
		return repairIndex(root, removed, now, warn)
	})
	return removed, err
}

// pruneReason says why session id is to be removed, or "" to keep it;
// err is what the user must hear about a session that is kept.
func pruneReason(root, id string, names map[string]bool) (why string, err error) {
	dir := Dir(root, id)
	fi, err := os.Lstat(dir)
	switch {
	case err != nil:
		return "", err
	case !fi.IsDir():
		return "", fmt.Errorf("%s is not a directory (a symbolic link?)", dir)
	case isEmptyDir(dir):
		return "empty directory", nil
	}
	creator := creatorOf(dir)
	if creator == creatorLive || names[TmuxName(id)] {
		return "", nil
	}
	s, err := Load(root, id)
	if err != nil {
		_, serr := os.Lstat(filepath.Join(dir, ".session"))
		if creator == creatorGone && errors.Is(serr, fs.ErrNotExist) {
			return "creation interrupted before its .session was written", nil
		}
		return "", err
	}
	if s.Status == "creating" {
		return "creation interrupted", nil
	}
	return "", nil
}

// repairIndex drops from the index the removed sessions and every entry
// that names no session directory, and writes it when it changed.
func repairIndex(root string, removed []string, now time.Time, warn io.Writer) error {
	ix, err := readIndex(root)
	var corrupt *corruptIndexError
	changed := errors.As(err, &corrupt)
	if changed {
		warnf(warn, "%v; rebuilding it from the session directories", err)
		ix, err = rebuildIndex(root)
	}
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	kept := []indexEntry{}
	for _, e := range ix.Sessions {
		var drop string
		switch {
		case !isCanonical(e.SessionID):
			drop = "not a session id"
		case seen[e.SessionID]:
			drop = "listed twice"
		case slices.Contains(removed, e.SessionID):
		default:
			if _, err := os.Lstat(Dir(root, e.SessionID)); errors.Is(err, fs.ErrNotExist) {
				drop = "no such session directory"
			}
		}
		if drop != "" {
			warnf(warn, "index entry %q dropped: %s", e.SessionID, drop)
		}
		if drop != "" || slices.Contains(removed, e.SessionID) {
			changed = true
			continue
		}
		seen[e.SessionID] = true
		kept = append(kept, e)
	}
	if !changed && len(removed) == 0 {
		return nil
	}
	ix.Sessions = kept
	for _, id := range removed {
		if err := appendJournal(root, id, "error", now); err != nil {
			return err
		}
	}
	return writeIndex(root, ix, now)
}

func warnf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, "mas: warning: "+format+"\n", args...)
	}
}

package isolated

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"mas/internal/layout"
	"mas/internal/report"
	"mas/internal/safefile"
	"mas/tmux"
)

// Prune removes what interrupted creations and removals left, and nothing
// that may hold work.
//
// A session directory is removed when it holds nothing (a creator killed
// right after making it, perhaps with its marker), or when its creator is
// gone, its tmux session does not run, its .session reads fine and says
// "creating" (or was never written), its marker says that the creator had
// not started the agents (so nothing in it is theirs), and the journal
// never recorded it active. A session whose .session cannot be read, or is
// inconsistent, and an interrupted creation that may hold work (its agents
// started, or a marker of an older mas that does not say) are reported to
// warn and left alone: a hand edit must never cost the work in it, and
// "mas session rm" removes what the user wants gone.
//
// What a removal killed before it ended left (see Removals) is deleted,
// and the session's index entry dropped with a "removed" journal line,
// as the removal would have done.
//
// Prune also repairs the index: it drops entries whose id is not a
// canonical UUID, repeated entries and entries whose directory is gone,
// and rebuilds a corrupt index from the session directories. It never
// removes a directory because of an index entry. It returns the ids of the
// sessions it removed and of those whose removal it finished.
func Prune(ctx context.Context, c tmux.Client, root string, now time.Time, warn *report.Reporter) (removed, finished []string, err error) {
	if err := checkSessionsDir(root); err != nil {
		return nil, nil, err
	}
	if _, err := os.Lstat(sessionsDir(root)); errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	running, err := layout.ListSessions(ctx, c)
	if err != nil {
		return nil, nil, err
	}
	names := layout.RefNames(running)
	err = locked(ctx, root, func() error {
		// Nothing is removed that the journal could not record.
		if err := checkRegistry(root); err != nil {
			return err
		}
		var err error
		if finished, err = finishRemovals(root, now, warn); err != nil {
			return err
		}
		ids, err := IDs(root)
		if err != nil {
			return err
		}
		j := &journal{root: root}
		for _, id := range ids {
			why, err := pruneReason(root, id, names, j)
			if err != nil {
				warn.Warnf("session %s left as it is: %v", id, err)
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
	return removed, finished, err
}

// pruneReason says why session id is to be removed, or "" to keep it;
// err is what the user must hear about a session that is kept.
func pruneReason(root, id string, names map[string]bool, j *journal) (why string, err error) {
	dir := Dir(root, id)
	fi, err := os.Lstat(dir)
	switch {
	case err != nil:
		return "", err
	case !fi.IsDir():
		return "", fmt.Errorf("%s is not a directory (a symbolic link?)", dir)
	case leftAtMkdir(dir):
		return "empty directory", nil
	}
	creator := creatorOf(dir)
	if creator == creatorLive || names[TmuxName(id)] {
		return "", nil
	}
	says := markerSays(dir)
	s, loadErr := Load(root, id)
	_, serr := os.Lstat(filepath.Join(dir, ".session"))
	unwritten := errors.Is(serr, fs.ErrNotExist)
	switch {
	case loadErr == nil && s.Status != Creating:
		return "", nil
	case loadErr != nil && (creator != creatorGone || says == markerResume || !unwritten):
		return "", loadErr
	}
	// An interrupted creation: removed only when it never held work.
	switch {
	case creator == creatorGone && says == markerAgents:
		return "", errors.New("its creation was interrupted after its agents started; mas session rm removes it")
	case creator != creatorGone || says != markerWorkspace:
		return "", errors.New("its creation was interrupted, maybe after its agents started (nothing says otherwise); mas session rm removes it")
	}
	switch active, err := j.everActive(id); {
	case err != nil:
		return "", fmt.Errorf("its creation was interrupted, but whether it was ever active is unknown (%v); mas session rm removes it", err)
	case active:
		return "", errors.New("its creation was interrupted, but the journal says it was active; mas session rm removes it")
	}
	if unwritten {
		return "creation interrupted before its .session was written", nil
	}
	return "creation interrupted", nil
}

// maxJournalSize caps what is read of the journal, .index.
const maxJournalSize = 64 << 20

// journal is the registry's journal, read once, when first asked.
type journal struct {
	root   string
	active map[string]bool // the ids it ever recorded active
	err    error
}

// everActive tells whether the journal ever recorded session id active;
// a journal that is not there recorded nothing.
func (j *journal) everActive(id string) (bool, error) {
	if j.active == nil && j.err == nil {
		j.active = map[string]bool{}
		data, err := safefile.ReadFile(filepath.Join(sessionsDir(j.root), journalName), maxJournalSize)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			j.err = err
		}
		for _, line := range strings.Split(string(data), "\n") {
			if id, rest, ok := strings.Cut(line, ":"); ok && strings.HasPrefix(rest, "active:") {
				j.active[id] = true
			}
		}
	}
	return j.active[id], j.err
}

// repairIndex drops from the index the removed sessions and every entry
// that names no session directory, and writes it when it changed.
func repairIndex(root string, removed []string, now time.Time, warn *report.Reporter) error {
	ix, err := readIndex(root)
	var corrupt *corruptIndexError
	changed := errors.As(err, &corrupt)
	if changed {
		warn.Warnf("%v; rebuilding it from the session directories", err)
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
		case !IsID(e.SessionID):
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
			warn.Warnf("index entry %q dropped: %s", e.SessionID, drop)
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
		if err := appendJournal(root, id, Error, now); err != nil {
			return err
		}
	}
	return writeIndex(root, ix, now)
}

package isolated

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"
)

// NoteActivity writes, for each session of ids under root, when its agents
// last reported an event (Session.LastActivity) into its registry entry
// and its metadata.json. The registry lock is waited for at most wait: a
// background writer gives up rather than hold up the commands. A session
// that is gone, or whose files cannot be read, is skipped; an entry that is
// not in the index is not added (the session's own commands register it).
func NoteActivity(ctx context.Context, root string, ids []string, wait time.Duration, now time.Time) error {
	return lockedFor(ctx, root, wait, func() error {
		if err := checkRegistry(root); err != nil {
			return err
		}
		ix, err := readIndex(root)
		if err != nil {
			return err
		}
		changed := false
		var errs []error
		for _, id := range ids {
			s, err := Load(root, id)
			if err != nil {
				continue
			}
			last := s.LastActivity()
			if i := slices.IndexFunc(ix.Sessions, func(e indexEntry) bool { return e.SessionID == id }); i >= 0 &&
				last != "" && ix.Sessions[i].LastActivity != last {
				ix.Sessions[i].LastActivity = last
				changed = true
			}
			if err := noteMetadata(s); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", filepath.Join(s.Dir, "metadata.json"), err))
			}
		}
		if changed {
			errs = append(errs, writeIndex(root, ix, now))
		}
		return errors.Join(errs...)
	})
}

// noteMetadata rewrites the metadata.json of s, loaded just before, with
// its last activity. A command may save the session meanwhile: save writes
// .session, then metadata.json. So .session is read again once
// metadata.json is written, and while it says something else than s, the
// file is written again from what it says: either the command's
// metadata.json comes last, or this one does, made from the command's
// .session.
func noteMetadata(s *Session) error {
	for range 3 {
		if err := s.saveMetadata(); err != nil {
			return err
		}
		again, err := Load(s.Root, s.ID)
		if err != nil || *again == *s {
			return nil // gone (removed) or unchanged
		}
		s = again
	}
	return nil
}

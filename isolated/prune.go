package isolated

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"mas/layout"
	"mas/tmux"
)

// Prune removes what interrupted creations left: session directories
// without a readable .session, or still "creating", whose tmux session
// does not run. It rewrites the index from what remains (which also
// repairs a corrupt one) and returns the ids it removed.
func Prune(ctx context.Context, c tmux.Client, root string, now time.Time, warn io.Writer) ([]string, error) {
	names, err := layout.Sessions(ctx, c)
	if err != nil {
		return nil, err
	}
	ids, err := IDs(root)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, id := range ids {
		if names[TmuxName(id)] {
			continue
		}
		s, err := Load(root, id)
		if err == nil && s.Status != "creating" {
			continue
		}
		if err := os.RemoveAll(Dir(root, id)); err != nil {
			return removed, err
		}
		removed = append(removed, id)
	}
	if len(removed) == 0 && !indexNeedsRepair(root) {
		return nil, nil
	}
	err = locked(root, func() error {
		ix, err := readIndex(root)
		if err != nil {
			if warn != nil {
				fmt.Fprintf(warn, "mas: warning: %v; rebuilding it from the session directories\n", err)
			}
			if ix, err = rebuildIndex(root); err != nil {
				return err
			}
		}
		ix.Sessions = slices.DeleteFunc(ix.Sessions, func(e indexEntry) bool { return slices.Contains(removed, e.SessionID) })
		for _, id := range removed {
			if err := appendJournal(root, id, "error", now); err != nil {
				return err
			}
		}
		return writeIndex(root, ix, now)
	})
	return removed, err
}

func indexNeedsRepair(root string) bool {
	_, err := readIndex(root)
	return err != nil
}

package isolated

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"mas/internal/layout"
	"mas/tmux"
)

// Orphan is a tmux session that an isolated session of the root started
// and whose directory is gone: its agents run, with no workspace.
type Orphan struct {
	layout.Ref
	SessionID string // its MAS_SESSION_ID
}

// IsTmuxName reports whether name has the form of an isolated session's
// tmux name, mas-<8 lower-case hex digits>.
func IsTmuxName(name string) bool {
	prefix, ok := strings.CutPrefix(name, "mas-")
	return ok && isShortID(prefix)
}

// Orphans returns the orphans of root among the sessions of a tmux server
// (from layout.ListSessions), sorted by name. It makes no tmux call when
// none of them could be one, or when each that could says whose it is in
// its options (layout.Owner); one otherwise, for the environments of those
// that do not (made by an older mas).
//
// A session is an orphan of root when its name is mas-<8 hex digits>, no
// session directory under root has an id starting with those digits, and
// what its creator set on it says so: its root is root, its mode isolated
// and its id one whose tmux name is the session's. A legacy session, one
// of another root, one the original tool started (it set none of these)
// or one made by hand is never an orphan. The directories are read again
// after tmux answered, so that a session created meanwhile is not taken
// for one.
func Orphans(ctx context.Context, c tmux.Client, root string, sessions []layout.Ref) ([]Orphan, error) {
	return orphansAmong(ctx, c, root, sessions, nil)
}

// orphansAmong is Orphans for a caller that has just listed the ids of
// root's sessions directory (nil: none did, they are read).
func orphansAmong(ctx context.Context, c tmux.Client, root string, sessions []layout.Ref, listed []string) ([]Orphan, error) {
	var candidates []layout.Ref
	for _, s := range sessions {
		if IsTmuxName(s.Name) {
			candidates = append(candidates, s)
		}
	}
	if len(candidates) == 0 {
		return nil, nil
	}
	candidates, err := withoutDirectory(root, candidates, listed)
	if err != nil || len(candidates) == 0 {
		return nil, err
	}
	owners, err := ownersOf(ctx, c, candidates)
	if err != nil {
		return nil, err
	}
	candidates, err = withoutDirectory(root, candidates, nil)
	if err != nil {
		return nil, err
	}
	var orphans []Orphan
	for _, s := range candidates {
		o, ok := owners[s.ID]
		if !ok || !ownedBy(root, s.Name, o) {
			continue
		}
		orphans = append(orphans, Orphan{Ref: s, SessionID: o.ID})
	}
	slices.SortFunc(orphans, func(a, b Orphan) int { return strings.Compare(a.Name, b.Name) })
	return orphans, nil
}

// ownedBy tells whether a tmux session named name that says owner of
// itself is one of root's isolated sessions.
func ownedBy(root, name string, owner layout.Owner) bool {
	return owner.Mode == layout.Isolated && IsID(owner.ID) && TmuxName(owner.ID) == name && layout.SamePath(owner.Root, root)
}

// MarkedAsOthers tells, from its marks alone (no tmux call), that the tmux
// session r is no isolated session of root: another root's, another
// mode's. A session without marks (made by an older mas or by hand) says
// nothing of itself: false.
func MarkedAsOthers(root string, r layout.Ref) bool {
	return r.Owner.Marked() && !ownedBy(root, r.Name, r.Owner)
}

// ownersOf returns what each listed session says of its owner, by tmux
// ID: its options, or for those that have none, its environment, all read
// by one tmux call. A session that ended before its environment was read
// is left out.
func ownersOf(ctx context.Context, c tmux.Client, sessions []layout.Ref) (map[string]layout.Owner, error) {
	owners := map[string]layout.Owner{}
	var unmarked []string
	for _, s := range sessions {
		if s.Owner.Marked() {
			owners[s.ID] = s.Owner
		} else {
			unmarked = append(unmarked, s.ID)
		}
	}
	if len(unmarked) == 0 {
		return owners, nil
	}
	envs, err := layout.Environments(ctx, c, unmarked)
	if err != nil {
		return nil, err
	}
	for id, env := range envs {
		owners[id] = layout.OwnerFromEnv(env)
	}
	return owners, nil
}

// withoutDirectory drops the sessions whose tmux name is that of a session
// directory under root, whose ids are listed (nil: read them).
func withoutDirectory(root string, sessions []layout.Ref, ids []string) ([]layout.Ref, error) {
	if ids == nil {
		var err error
		if ids, err = IDs(root); err != nil {
			return nil, err
		}
	}
	names := make(map[string]bool, len(ids))
	for _, id := range ids {
		names[TmuxName(id)] = true
	}
	return slices.DeleteFunc(slices.Clone(sessions), func(s layout.Ref) bool { return names[s.Name] }), nil
}

// StopOrphan ends the orphan of root named name (mas-<8 hex digits>). It
// finds out again, right before the kill, that the session is an orphan of
// root (see Orphans): a name alone is never trusted. The session is killed
// by its tmux ID, so that a session that took the name since is not.
// When name is no orphan of root, the error wraps ErrNoSession.
func StopOrphan(ctx context.Context, c tmux.Client, root, name string) (Orphan, error) {
	notOrphan := fmt.Errorf("%w %s under %s, nor an orphaned tmux session of this root by that name",
		ErrNoSession, name, sessionsDir(root))
	if !IsTmuxName(name) {
		return Orphan{}, notOrphan
	}
	sessions, err := layout.ListSessions(ctx, c)
	if err != nil {
		return Orphan{}, err
	}
	sessions = slices.DeleteFunc(sessions, func(s layout.Ref) bool { return s.Name != name })
	orphans, err := Orphans(ctx, c, root, sessions)
	if err != nil {
		return Orphan{}, err
	}
	if len(orphans) != 1 {
		return Orphan{}, notOrphan
	}
	if err := layout.KillID(ctx, c, orphans[0].ID); err != nil {
		return Orphan{}, &StepError{"kill tmux session " + name, err}
	}
	return orphans[0], nil
}

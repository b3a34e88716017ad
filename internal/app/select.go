package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"mas/envfile"
	"mas/internal/layout"
	"mas/isolated"
	"mas/legacy"
)

// ErrNoSession is returned when no mas session runs.
var ErrNoSession = errors.New("no mas session is running (start one with: mas start)")

// ErrNotRunning is in the error (errors.Is) of a session asked for that
// does not run, or is not the root's; it adds no text to it.
var ErrNotRunning = errors.New("not running")

// notRunningError is ErrNotRunning with what does not run.
type notRunningError struct{ msg string }

func (e *notRunningError) Error() string { return e.msg }

func (e *notRunningError) Unwrap() error { return ErrNotRunning }

// notRunningf formats a *notRunningError.
func notRunningf(format string, args ...any) error {
	return &notRunningError{msg: fmt.Sprintf(format, args...)}
}

// Selected is the session a command acts on.
type Selected struct {
	Name  string            // tmux session name
	Root  string            // $ROOT
	Iso   *isolated.Session // set for an isolated session
	Panes []layout.PaneInfo // the session's panes, in order
	// screens has the panes' screens that SelectPeek read with the
	// listing; nil for a selection that read none.
	screens *layout.Screens
}

// Shown is the session's name as messages show it: a session mas did not
// make may have a name that a tool took from a directory, with
// bidirectional controls that tmux keeps (layout.Printable).
func (s Selected) Shown() string { return layout.Printable(s.Name) }

// Select picks the session for send, status, stop and attach:
// MAS_SESSION_ID or MAS_SESSION_NAME when set; else the current tmux
// session when it is a mas-* one; else the project's legacy session named
// in $ROOT/.mas_session; else the only mas-* session that is not another
// root's. With several and no hint it is an error that lists them, never
// a silent pick; with only other roots' sessions, an *OthersError that
// says whose each is.
// It makes one tmux call, which also lists the session's panes and what
// each session says of whose it is (layout.Owner).
// A hint (an isolated session's id, its prefix, or a tmux session name)
// wins over all; "" is none. A prefix of several ids is an
// *isolated.AmbiguousError that lists them.
//
// A session of the root asked for by its id (a hint, MAS_SESSION_ID, or
// the name of one of the root's isolated sessions) is never a tmux session
// that says it is another root's or another session's (*ForeignError): two
// roots can hold the same id, hence the same tmux name, and the one whose
// files say it runs may have lost its tmux server. A session named by its
// tmux name alone (MAS_SESSION_NAME, $TMUX) is whichever runs under that
// name, as the original tool chose it: a project's session is reached from
// any directory. A session chosen without being named is never one whose
// marks say it is another root's (issue 30: "cd B && mas stop -f" stopped
// root A's session); one without marks is anyone's, as before.
func (a *App) Select(ctx context.Context, hint string) (Selected, error) {
	return a.choose(ctx, hint, false, nil)
}

// SelectNamed is Select for a session the user named on the command line
// (--session): besides what a hint names, any tmux session that runs, by
// its name, whoever's, as MAS_SESSION_NAME names it. The root's isolated
// sessions, by id, prefix or tmux name, are still checked as theirs.
func (a *App) SelectNamed(ctx context.Context, name string) (Selected, error) {
	return a.choose(ctx, name, true, nil)
}

// SelectPeek is Select, or SelectNamed when named, for a Peek of lines
// lines read as form says: the tmux process that lists the panes also
// reads the screens of the session the hint or MAS_SESSION_ID names as
// one of the root's isolated sessions, else of every mas-* session, if
// its marks say it is the root's or say nothing (layout.SnapshotScreens),
// so that a Peek of the selected session starts no other.
func (a *App) SelectPeek(ctx context.Context, hint string, named bool, lines int, form PeekForm) (Selected, error) {
	return a.choose(ctx, hint, named, func(ctx context.Context) ([]layout.PaneInfo, *layout.Screens, error) {
		return layout.SnapshotScreens(ctx, a.Tmux, a.likelySession(hint), a.Root(), lines, form != PeekRows)
	})
}

// likelySession is the tmux name of the root's isolated session that
// hint, else MAS_SESSION_ID, names, from its files alone; "" when they
// name none. Select decides: this only says whose screens to read ahead.
func (a *App) likelySession(hint string) string {
	if hint == "" {
		hint = a.Getenv("MAS_SESSION_ID")
	}
	if hint == "" {
		return ""
	}
	id, err := isolated.Find(a.Root(), hint)
	if err != nil {
		return ""
	}
	iso, err := isolated.Load(a.Root(), id)
	if err != nil {
		return ""
	}
	return iso.TmuxName
}

// choose is Select; named takes the hint for a name the user gave;
// snapshot, when not nil, lists the panes instead of layout.Snapshot and
// reads screens with them.
func (a *App) choose(ctx context.Context, hint string, named bool,
	snapshot func(context.Context) ([]layout.PaneInfo, *layout.Screens, error)) (Selected, error) {
	if snapshot == nil {
		snapshot = func(ctx context.Context) ([]layout.PaneInfo, *layout.Screens, error) {
			panes, err := layout.Snapshot(ctx, a.Tmux)
			return panes, nil, err
		}
	}
	panes, screens, err := snapshot(ctx)
	if err != nil {
		return Selected{}, err
	}
	s := &selection{a: a, root: a.Root(), hint: hint, named: named, snapshot: panes, names: layout.SessionNames(panes)}
	for _, resolve := range resolvers {
		if sel, done, err := resolve(s); done {
			sel.screens = screens
			return sel, err
		}
	}
	return Selected{}, ErrNoSession // not reached: byOnlyOne always decides
}

// resolvers choose the session a command acts on, in Select's order: the
// first that decides (done) gives the selection or the error; the others
// pass.
var resolvers = []func(*selection) (sel Selected, done bool, err error){
	(*selection).byHint,        // the id, prefix or tmux name the command was given
	(*selection).byEnvID,       // MAS_SESSION_ID
	(*selection).byEnvName,     // MAS_SESSION_NAME
	(*selection).byTmuxClient,  // the session of the tmux client this runs in
	(*selection).byProjectFile, // the root's .mas_session
	(*selection).byOnlyOne,     // the only mas-* session, or the list of several
}

// selection is what the resolvers read: the root, the hint ("" for none)
// and one listing of every pane of the tmux server.
type selection struct {
	a        *App
	root     string
	hint     string
	named    bool // the hint is a name the user gave (SelectNamed)
	snapshot []layout.PaneInfo
	names    map[string]bool // the tmux sessions of snapshot
}

// pass is a resolver's answer when it does not decide.
func pass() (Selected, bool, error) { return Selected{}, false, nil }

// failed is a resolver's answer when it decides on an error.
func failed(err error) (Selected, bool, error) { return Selected{}, true, err }

// session is the tmux session name, as the snapshot lists it.
func (s *selection) session(name string) Selected {
	return Selected{Name: name, Root: s.root, Panes: layout.Of(s.snapshot, name)}
}

// loadIsolated is the root's isolated session id, in the tmux session of
// its name.
func (s *selection) loadIsolated(id string) (Selected, error) {
	iso, err := isolated.Load(s.root, id)
	if err != nil {
		return Selected{}, err
	}
	sel := s.session(iso.TmuxName)
	sel.Iso = iso
	return sel, nil
}

// errAbsent is check's answer for a session that no tmux session runs; it
// never leaves checked, whose caller says it in its own words (most with
// ErrNotRunning). It is not ErrNotRunning itself: a *ForeignError, check's
// other answer, unwraps to that, and checked tells the two apart.
var errAbsent = errors.New("no tmux session runs it")

// check is the check of a session asked for as the root's: a tmux session
// of its name runs it (for an isolated session, as runs tells), and does
// not say it is another's than want (owned). It returns errAbsent or a
// *ForeignError.
func (sel Selected) check(want layout.Owner) error {
	if len(sel.Panes) == 0 || sel.Iso != nil && !runs(sel.Iso, sel.Panes) {
		return errAbsent
	}
	return sel.owned(want)
}

// checked decides on sel when it passes check for want; else on absent,
// or on the *ForeignError after foreign.
func checked(sel Selected, want layout.Owner, absent error, foreign string) (Selected, bool, error) {
	switch err := sel.check(want); {
	case errors.Is(err, errAbsent):
		return failed(absent)
	case err != nil:
		return failed(fmt.Errorf("%s: %w", foreign, err))
	}
	return sel, true, nil
}

// byHint selects what the command was given: an isolated session of the
// root by its id, its prefix or its tmux name, else the root's own legacy
// session; not another root's session, nor any tmux session that happens
// to run.
func (s *selection) byHint() (Selected, bool, error) {
	if s.hint == "" {
		return pass()
	}
	id, err := isolated.Find(s.root, s.hint)
	switch {
	case isAmbiguous(err):
		return failed(err)
	case err != nil && s.named && s.names[s.hint]:
		return s.pick(s.hint)
	case err != nil:
		return s.byLegacyHint()
	}
	sel, err := s.loadIsolated(id)
	if err != nil {
		return failed(err)
	}
	absent := WithHints(notRunningf("session %s is not running", s.hint), sel.resumeHints(s.a)...)
	return checked(sel, sel.Iso.Owner(), absent, "session "+s.hint+" is not running")
}

// byLegacyHint selects the root's legacy session by the name the command
// was given.
func (s *selection) byLegacyHint() (Selected, bool, error) {
	switch {
	case isLegacySessionOf(s.root, s.hint):
	case s.named:
		return failed(notRunningf("no session %s%s: not a session of %s (%s), nor a tmux session that runs",
			s.hint, tooShort(s.hint), s.root, s.a.RootWhy()))
	default:
		return failed(notRunningf("%s is not a session of %s (%s)", s.hint, s.root, s.a.RootWhy()))
	}
	return checked(s.session(s.hint), legacy.Owner(s.root), notRunningf("no running session %s", s.hint),
		"session "+s.hint+" is not running")
}

// tooShort says of a hint that could begin an id, but is shorter than
// any prefix Find takes, that a prefix needs more ("-s 1c").
func tooShort(hint string) string {
	if len(hint) < isolated.MinPrefix && strings.Trim(hint, "0123456789abcdef") == "" {
		return fmt.Sprintf(" (a prefix of an id needs %d characters or more)", isolated.MinPrefix)
	}
	return ""
}

// byEnvID selects the isolated session of the root that MAS_SESSION_ID
// names.
func (s *selection) byEnvID() (Selected, bool, error) {
	id := s.a.Getenv("MAS_SESSION_ID")
	if id == "" {
		return pass()
	}
	full, err := isolated.Find(s.root, id)
	if err != nil {
		err = s.a.whereRoot(malformedAsUsage(err, "MAS_SESSION_ID: "))
		if errors.Is(err, isolated.ErrNoSession) {
			err = WithHints(err, "forget it in this shell: "+UnsetCommand(id, s.a.fishUser()))
		}
		return failed(err)
	}
	sel, err := s.loadIsolated(full)
	if err != nil {
		return failed(err)
	}
	what := fmt.Sprintf("MAS_SESSION_ID: session %s (tmux %s) is not running", sel.Iso.ID, sel.Name)
	forget := "forget it in this shell: " + UnsetCommand(sel.Iso.ID[:8], s.a.fishUser())
	hints := sel.resumeHints(s.a)
	if len(hints) > 0 {
		forget = "or " + forget
	}
	hints = append(hints, forget)
	return checked(sel, sel.Iso.Owner(), WithHints(errors.New(what), hints...), what)
}

// resumeHints say how to resume the selected isolated session, which no
// tmux session runs as its own: none when a tmux session of its name runs
// (another root's, one made by hand), which a resume would not replace.
func (sel Selected) resumeHints(a *App) []string {
	if len(sel.Panes) > 0 {
		return nil
	}
	return a.ResumeHints(sel.Iso)
}

// byEnvName selects the tmux session that MAS_SESSION_NAME names.
func (s *selection) byEnvName() (Selected, bool, error) {
	name := s.a.Getenv("MAS_SESSION_NAME")
	if name == "" {
		return pass()
	}
	if !s.names[name] {
		return failed(fmt.Errorf("MAS_SESSION_NAME: tmux session %s is not running", name))
	}
	sel, _, err := s.pick(name)
	if err != nil {
		return failed(fmt.Errorf("MAS_SESSION_NAME: %w", err))
	}
	return sel, true, nil
}

// byTmuxClient selects the session of the tmux client this process runs
// in, when it is a mas-* one of the server mas uses.
func (s *selection) byTmuxClient() (Selected, bool, error) {
	// $TMUX is "socket,server pid,session number" of the current client.
	parts := strings.Split(s.a.Getenv("TMUX"), ",")
	if len(parts) != 3 || s.a.Getenv("MAS_TMUX_SOCKET") != "" {
		return pass()
	}
	for _, p := range s.snapshot {
		if p.SessionID == "$"+parts[2] && strings.HasPrefix(p.Session, "mas-") {
			return s.pick(p.Session)
		}
	}
	return pass()
}

// byProjectFile selects the legacy session the root's .mas_session names.
// It is the root's own claim, so a tmux session of its name that says it
// is another root's is not it. One that names no running session (the
// original's clones hold its stale one) is passed over, as the original
// did; one that cannot be trusted is passed over with a warning
// (untrusted).
func (s *selection) byProjectFile() (Selected, bool, error) {
	name, err := legacy.RunningName(s.root)
	switch {
	case err == nil && s.names[name]:
		if err := s.session(name).owned(layout.Owner{Root: s.root}); err != nil {
			return failed(fmt.Errorf("project session file: %w", err))
		}
		return s.pick(name)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		s.a.untrusted(s.root, err)
	}
	return pass()
}

// byOnlyOne selects the only mas-* session that is not another root's: a
// session whose marks name another root is reached only by naming it
// (issue 30). With several it is a *SeveralError that lists them; with
// none, an *OthersError when other roots' sessions run, else ErrNoSession.
func (s *selection) byOnlyOne() (Selected, bool, error) {
	var mine []string
	var others []Other
	for _, n := range slices.Sorted(maps.Keys(s.names)) {
		switch owner := s.owner(n); {
		case !strings.HasPrefix(n, "mas-"):
		case owner.Root != "" && !layout.SamePath(owner.Root, s.root):
			_, err := isolated.Find(s.root, n) // a name of the root's own, or of two of them
			others = append(others, Other{Name: layout.Printable(n), Owner: owner, Shadowed: err == nil || isAmbiguous(err)})
		default:
			mine = append(mine, n)
		}
	}
	switch {
	case len(mine) == 1:
		return s.pick(mine[0])
	case len(mine) > 1:
		for i, n := range mine {
			mine[i] = layout.Printable(n) // for people only: see Selected.Shown
		}
		return failed(&SeveralError{Names: mine})
	case len(others) > 0:
		return failed(&OthersError{Root: s.root, Sessions: others})
	}
	return failed(ErrNoSession)
}

// owner is whose the running tmux session name says it is.
func (s *selection) owner(name string) layout.Owner {
	if panes := layout.Of(s.snapshot, name); len(panes) > 0 {
		return panes[0].Owner
	}
	return layout.Owner{}
}

// pick decides on a running tmux session by its name: the isolated
// session of the root that has its name, when it says it is that session
// or says nothing, else the session of that name, whoever's.
func (s *selection) pick(name string) (Selected, bool, error) {
	if id, err := isolated.Find(s.root, name); err == nil {
		if sel, err := s.loadIsolated(id); err == nil && sel.Name == name {
			if err := sel.owned(sel.Iso.Owner()); err != nil {
				return failed(err)
			}
			return sel, true, nil
		}
	}
	return s.theirs(name), true, nil
}

// theirs is the running tmux session name, picked by its name: when its
// marks say it is a session of another root, and that root's own files
// agree (its isolated session of that id has this name, or its legacy
// session is this one), it is that root's session, so that a stop records
// it where that root's session list reads it, and its agents' activity is
// read where they report it; else it is the session of that name, as the
// original tool took it. The marks alone never decide: the other root's
// files must say the same.
func (s *selection) theirs(name string) Selected {
	sel := s.session(name)
	o := s.owner(name)
	if o.Root == "" || !filepath.IsAbs(o.Root) || layout.SamePath(o.Root, s.root) {
		return sel
	}
	switch o.Mode {
	case layout.Isolated:
		if id, err := isolated.Find(o.Root, o.ID); err == nil && id == o.ID {
			if iso, err := isolated.Load(o.Root, id); err == nil && iso.TmuxName == name {
				sel.Root, sel.Iso = o.Root, iso
			}
		}
	case layout.Legacy:
		if isLegacySessionOf(o.Root, name) {
			sel.Root = o.Root
		}
	}
	return sel
}

// untrusted warns, once in the life of a, that root's .mas_session is
// ignored for err, and says how to set it right: a file its group may
// write (a clone of the original made with umask 002 holds the stale one
// it committed, at 0664), a link, a FIFO, a broken line. Reading on would
// take a name anyone may have put there; failing would stop every command
// of a root where nobody meant the file. What comes after it in Select
// chooses instead: the only mas-* session, or the list of several.
func (a *App) untrusted(root string, err error) {
	a.sessionFileWarning.Do(func() {
		file := shellQuote(legacy.SessionFile(root))
		fix := "rm " + file
		if errors.Is(err, envfile.ErrWritable) {
			fix = "chmod go-w " + file + " (or rm it)"
		}
		a.Warnf("ignoring %v; fix: %s", err, fix)
	})
}

// owned returns a *ForeignError when the selected tmux session says that
// it is not want's (layout.Owner.Foreign); a session that says nothing
// (made by an older mas, the original or by hand) is anyone's.
func (sel Selected) owned(want layout.Owner) error {
	if len(sel.Panes) > 0 && sel.Panes[0].Owner.Foreign(want) {
		return &ForeignError{Name: sel.Name, Owner: sel.Panes[0].Owner, Root: sel.Root}
	}
	return nil
}

// ForeignError is a tmux session of the name a session of Root has, or of
// the only name there is, that says it is another's: another root's, or
// another session's of the root. For the session asked for, it is
// ErrNotRunning.
type ForeignError struct {
	Name  string       // the tmux session
	Owner layout.Owner // whose it says it is
	Root  string       // the root of the selection
}

func (e *ForeignError) Error() string {
	if e.Owner.Root != "" && !layout.SamePath(e.Owner.Root, e.Root) {
		return fmt.Sprintf("%s, not to root %q", e.belongs(), e.Root)
	}
	return e.belongs()
}

func (e *ForeignError) belongs() string {
	return fmt.Sprintf("tmux session %s belongs to %s", e.Name, e.Owner)
}

func (e *ForeignError) Unwrap() error { return ErrNotRunning }

// runs tells whether the isolated session s may run in the tmux session of
// its name, whose panes are given: that session exists, and its marks name
// s (isolated.Session.Runs: whatever s's files say, as a create or resume
// killed once tmux built the team leaves them) or s's files do not say
// stopped; owned then tells whether it says it is another's. A tmux
// session of its name next to files that say stopped, and not marked as
// s's, is not its own (another root's session of the same id, or one made
// by hand), as session list and session rm see it: no command reaches it
// by this session's id.
func runs(s *isolated.Session, panes []layout.PaneInfo) bool {
	return len(panes) > 0 && (s.Status != isolated.Stopped || s.Runs(panes[0].Owner))
}

// SeveralError is a selection without a hint among several sessions. Its
// message tells the command line's user how to choose; the API tells its
// client in its own terms.
type SeveralError struct {
	Names []string // as messages show them (layout.Printable)
}

func (e *SeveralError) Error() string {
	return fmt.Sprintf("several mas sessions are running (%s): choose one with MAS_SESSION_NAME=<name> or MAS_SESSION_ID=<id>",
		strings.Join(e.Names, ", "))
}

// OthersError is a selection without a hint where every mas-* session
// that runs says it is another root's: none is chosen unless named. It is
// ErrNoSession (errors.Is) for callers that take none as an answer. Its
// message says whose each is; the command line and the API add how to
// name one in their own terms.
type OthersError struct {
	Root     string  // the root of the selection
	Sessions []Other // sorted by name
}

// Other is a tmux session of another root.
type Other struct {
	Name  string       // as messages show it (layout.Printable)
	Owner layout.Owner // whose it says it is
	// Shadowed: an isolated session of the selection's root has its
	// name, so that naming it there names that one; it is reached from
	// its own root.
	Shadowed bool
}

func (e *OthersError) Error() string {
	var whose []string
	for _, o := range e.Sessions {
		whose = append(whose, o.Name+" is "+o.Owner.String())
	}
	return fmt.Sprintf("no session of root %q is running; %s", e.Root, strings.Join(whose, "; "))
}

func (e *OthersError) Unwrap() error { return ErrNoSession }

// ShellQuote quotes s for a POSIX shell, when it needs it, for a command
// line a message gives.
func ShellQuote(s string) string { return shellQuote(s) }

// isLegacySessionOf reports whether name is the legacy session of root:
// the one its .mas_session names, or the one its project would start.
func isLegacySessionOf(root, name string) bool {
	if running, err := legacy.RunningName(root); err == nil && running == name {
		return true
	}
	project, _, err := legacy.FindProject(root)
	return err == nil && legacy.SessionName(project.Name) == name
}

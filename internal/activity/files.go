package activity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"mas/internal/roster"
	"mas/internal/safefile"
	"mas/internal/undo"
)

// The files of an activity directory, beside one NN.json per agent.
const (
	settingsName = "settings.json" // the agents' --settings file
	runName      = "run.json"      // Run
	lockName     = ".lock"         // held while a state is read and written back
)

// maxState caps the read of a file of the directory: agents may write
// there, and what mas writes is far smaller.
const maxState = 64 << 10

// Run says how the agents of a session were last started.
type Run struct {
	Started time.Time `json:"started"`
	// Events tells whether they were asked to report their events: an
	// agent program that is not Claude Code reports none.
	Events bool `json:"events"`
}

// Settings returns the path of the settings file of the activity
// directory dir.
func Settings(dir string) string { return filepath.Join(dir, settingsName) }

// Launch is a start of a session's agents under way (Wiring.Start).
type Launch struct {
	// Settings is the settings file to give each agent, "" when they
	// report no events.
	Settings string
	// Conversations maps an agent id to the conversation it continues.
	Conversations map[string]string

	dir  string
	run  Run
	made bool // the directory was made for this start
	// oldSettings and oldRun are the settings file and run.json this
	// start replaced, nil for none.
	oldSettings, oldRun []byte
}

// Started records the start: from now on, every state written before it
// is an earlier run's. To be called once the agents' panes are made.
func (l *Launch) Started() error {
	old, err := safefile.ReadFile(filepath.Join(l.dir, runName), maxState)
	if err == nil {
		l.oldRun = old
	}
	data, _ := json.Marshal(l.run)
	return safefile.WriteAtomic(filepath.Join(l.dir, runName), append(data, '\n'), 0o600)
}

// Abort undoes what Start and Started made, for a start that failed or
// was refused, or was undone after: the directory says of the agents what
// it said before (but for the events of agents that ran meanwhile). It
// returns what it could not put back.
func (l *Launch) Abort() error {
	if l.made {
		return os.RemoveAll(l.dir)
	}
	var errs []error
	if l.oldSettings != nil {
		errs = append(errs, safefile.WriteAtomic(Settings(l.dir), l.oldSettings, 0o600))
	}
	if l.oldRun != nil {
		errs = append(errs, safefile.WriteAtomic(filepath.Join(l.dir, runName), l.oldRun, 0o600))
	}
	return errors.Join(errs...)
}

// prepare makes l's directory (mode 0700) when it is missing and, when
// events, puts the settings file whose hooks run exe's hook command there,
// unless it holds that already. The agents' states are kept: their
// conversations are what a resume continues.
func (l *Launch) prepare(exe string, events bool) error {
	if err := safefile.CheckDir(l.dir); err != nil {
		return err
	}
	if err := os.Mkdir(l.dir, 0o700); err == nil {
		l.made = true
	} else if !errors.Is(err, fs.ErrExist) {
		return err
	}
	if !events {
		return nil
	}
	settings, err := settingsJSON(exe, l.dir)
	if err == nil {
		if old, same := holds(l.dir, settings); !same {
			err = safefile.WriteAtomic(Settings(l.dir), settings, 0o600)
			l.oldSettings = old
		}
	}
	if err != nil {
		err = undo.With(err, l.Abort())
	}
	return err
}

// holds reads the settings file of dir (old, nil for none) and tells
// whether it is settings.
func holds(dir string, settings []byte) (old []byte, same bool) {
	old, err := safefile.ReadFile(Settings(dir), maxState)
	return old, err == nil && bytes.Equal(old, settings)
}

// hookTimeout is how long, in seconds, the agent lets a hook of ours run
// before it ends it; the hook itself gives up far sooner (hookBudget).
const hookTimeout = 10

// settingsJSON is the agents' settings file: for each event, a hook that
// runs exe's hook command for dir. The command never fails the agent: it
// does nothing when exe is gone, says nothing (a hook's output may become
// the agent's context) and exits 0 (2 would block the agent).
func settingsJSON(exe, dir string) ([]byte, error) {
	qexe, err := syntax.Quote(exe, syntax.LangPOSIX)
	if err != nil {
		return nil, fmt.Errorf("mas binary path %q: %w", exe, err)
	}
	qdir, err := syntax.Quote(dir, syntax.LangPOSIX)
	if err != nil {
		return nil, fmt.Errorf("activity directory %q: %w", dir, err)
	}
	type hook struct {
		Type    string `json:"type"`
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}
	type group struct {
		Matcher string `json:"matcher,omitempty"`
		Hooks   []hook `json:"hooks"`
	}
	hooks := map[string][]group{}
	for _, ev := range Events {
		command := fmt.Sprintf("[ -x %s ] && exec %s %s %s %s >/dev/null 2>&1; exit 0", qexe, qexe, HookCommand, qdir, ev)
		g := group{Hooks: []hook{{Type: "command", Command: command, Timeout: hookTimeout}}}
		switch ev {
		case PreToolUse, PermissionRequest, PostToolUse, Notification, SessionStart, SessionEnd:
			g.Matcher = "*" // every tool, notification, source and reason
		}
		hooks[ev] = []group{g}
	}
	data, err := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
	return append(data, '\n'), err
}

// Read returns how the agents of the session of dir were last started and
// each agent's state, by id; an agent with no state yet, or whose state
// cannot be read, has none. A directory that does not exist holds no run.
func Read(dir string) (Run, map[string]State, error) {
	var run Run
	// A link in the directory's place would lead the reads elsewhere.
	if err := safefile.CheckDir(dir); err != nil {
		return run, nil, err
	}
	data, err := safefile.ReadFile(filepath.Join(dir, runName), maxState)
	if errors.Is(err, fs.ErrNotExist) {
		return run, map[string]State{}, nil
	}
	if err == nil {
		err = json.Unmarshal(data, &run)
	}
	if err != nil {
		return run, nil, fmt.Errorf("%s: %w", filepath.Join(dir, runName), err)
	}
	states := map[string]State{}
	for _, id := range roster.IDs() {
		if s, err := readState(dir, id); err == nil {
			states[id] = s
		}
	}
	return run, states, nil
}

// Of is agent id's activity and since when, from the run and the agent's
// state (ok false: none): an agent whose program reports no events is
// Unknown, one with no event in this run Starting.
func (r Run) Of(s State, ok bool) (Activity, time.Time) {
	if !r.Events {
		return Unknown, r.Started
	}
	if s.Submitted.Before(r.Started) {
		s.Submitted = time.Time{} // typed into an earlier run's agent
	}
	if !ok || s.EventAt.Before(r.Started) {
		// An earlier run's events say nothing of this one's agent.
		s = State{Submitted: s.Submitted, Since: r.Started}
	}
	return s.Now()
}

// readState reads agent id's state. The file is the agents' to write:
// what Apply would not have written is not taken (see trusted).
func readState(dir, id string) (State, error) {
	var s State
	data, err := safefile.ReadFile(statePath(dir, id), maxState)
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return State{}, err
	}
	return s.trusted(statePath(dir, id))
}

// trusted returns s as Apply could have written it, from a file of path
// that an agent may have written itself: an activity an event never
// gives is refused (it would be printed, and taken for a class name by
// the web page), and a message, conversation id or transcript path that
// Apply would not have kept is cleaned or dropped, so that none of it
// drives a terminal or becomes more than one word of a command line.
func (s State) trusted(path string) (State, error) {
	switch s.Activity {
	case "", Starting, Waiting, Working, Asking, Exited:
	default:
		return State{}, fmt.Errorf("%s: no event gives the activity %q", path, s.Activity)
	}
	if s.Event != "" && !slices.Contains(Events, s.Event) {
		return State{}, fmt.Errorf("%s: no event %q", path, s.Event)
	}
	s.Message = printable(s.Message, maxMessage)
	if !conversationID(s.Conversation) {
		s.Conversation = ""
	}
	if s.Conversation == "" || !transcriptPath(s.Transcript) {
		s.Transcript = ""
	}
	return s, nil
}

func statePath(dir, id string) string { return filepath.Join(dir, id+".json") }

// Update changes agent id's state by f under the directory's lock, which
// it waits for up to wait, and writes it back atomically: a reader sees
// the old state or the new one, and an update killed half-way leaves the
// old one.
func Update(ctx context.Context, dir, id string, wait time.Duration, f func(State) State) (State, error) {
	if _, ok := roster.Lookup(id); !ok {
		return State{}, fmt.Errorf("no agent %q", id)
	}
	var s State
	err := locked(ctx, dir, wait, func() error {
		var err error
		s, err = update(dir, id, f)
		return err
	})
	return s, err
}

// locked runs do under the lock of the directory dir, which it waits for
// up to wait.
func locked(ctx context.Context, dir string, wait time.Duration, do func() error) error {
	if err := safefile.CheckDir(dir); err != nil {
		return err
	}
	lock, err := safefile.Open(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := flock(ctx, lock, wait); err != nil {
		return fmt.Errorf("%s: %w", lock.Name(), err)
	}
	return do()
}

// update changes agent id's state by f; the caller holds the lock.
func update(dir, id string, f func(State) State) (State, error) {
	old, err := readState(dir, id)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		old = State{} // an unreadable state is replaced
	}
	s := f(old)
	data, err := json.Marshal(s)
	if err != nil {
		return State{}, err
	}
	return s, safefile.WriteAtomic(statePath(dir, id), append(data, '\n'), 0o600)
}

// updateAll changes the states of agents ids by f under one wait for the
// lock: a send to thirteen agents waits for a held lock once, not
// thirteen times.
func updateAll(ctx context.Context, dir string, ids []string, f func(State) State) error {
	for _, id := range ids {
		if _, ok := roster.Lookup(id); !ok {
			return fmt.Errorf("no agent %q", id)
		}
	}
	return locked(ctx, dir, lockWait, func() error {
		var errs []error
		for _, id := range ids {
			if _, err := update(dir, id, f); err != nil {
				errs = append(errs, fmt.Errorf("agent %s: %w", id, err))
			}
		}
		return errors.Join(errs...)
	})
}

// MarkSubmitted records that a prompt was typed into agents ids with
// Enter at t, before it is: until an agent reports the turn that prompt
// starts, it is working, not waiting for the turn before.
func MarkSubmitted(ctx context.Context, dir string, ids []string, t time.Time) error {
	return updateAll(ctx, dir, ids, func(s State) State {
		s.Submitted = t.UTC()
		return s
	})
}

// ClearSubmitted takes back a mark of MarkSubmitted made at t, when the
// prompt could not be typed; a later mark stays.
func ClearSubmitted(ctx context.Context, dir string, ids []string, t time.Time) error {
	return updateAll(ctx, dir, ids, func(s State) State {
		if s.Submitted.Equal(t.UTC()) {
			s.Submitted = time.Time{}
		}
		return s
	})
}

// lockWait bounds the wait of a command for the directory's lock, which
// hooks hold for a moment each.
const lockWait = 5 * time.Second

// ErrLockTimeout is a lock still held by another process after the wait.
var ErrLockTimeout = errors.New("held by another process for too long")

// flock takes an exclusive lock on f, trying again until wait is over or
// ctx is done.
func flock(ctx context.Context, f *os.File, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for delay := time.Millisecond; ; delay = min(2*delay, 20*time.Millisecond) {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		if time.Now().After(deadline) {
			return ErrLockTimeout
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
}

// Wiring says how a session's agents report their events, and whether
// they continue their conversations.
type Wiring struct {
	Exe    string // the mas binary the agents' hooks run
	Events bool   // the agent program reports events (it is Claude Code)
	// Continue asks each agent to continue the conversation its events
	// last named (a resume), instead of starting a new one.
	Continue bool
}

// Ready tells whether Start would write nothing in dir: the directory is
// there (not a link) and, when the agents report events, holds the
// settings file Start would put there.
func (w Wiring) Ready(dir string) bool {
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return false
	}
	if !w.Events {
		return true
	}
	settings, err := settingsJSON(w.Exe, dir)
	if err != nil {
		return false
	}
	_, same := holds(dir, settings)
	return same
}

// Start readies the activity directory dir for a start of the agents at
// t: the directory, and the settings file when they report events. Once
// their panes are made, Launch.Started records the start; a start that
// fails calls Launch.Abort. When w.Continue, each agent continues the
// conversation its events last named.
func (w Wiring) Start(dir string, t time.Time) (*Launch, error) {
	l := &Launch{dir: dir, run: Run{Started: t.UTC(), Events: w.Events}}
	if w.Continue {
		l.Conversations = map[string]string{}
		if _, states, err := Read(dir); err == nil {
			for id, s := range states {
				if c, ok := s.Continuable(); ok {
					l.Conversations[id] = c
				}
			}
		}
	}
	if err := l.prepare(w.Exe, w.Events); err != nil {
		return nil, fmt.Errorf("activity directory: %w", err)
	}
	if w.Events {
		l.Settings = Settings(dir)
	}
	return l, nil
}

// Continuable returns the conversation the agent of s can continue: the
// one its events last named, when its id can be given on a command line
// and its transcript, when the agent said where it keeps it, is there. An
// agent that was never given a prompt has a conversation id but no
// transcript yet (Claude Code writes it with the first message), and
// Claude Code refuses to resume a conversation whose transcript is gone
// (it deletes old ones): such an agent starts afresh instead of exiting.
func (s State) Continuable() (string, bool) {
	if !conversationID(s.Conversation) {
		return "", false
	}
	if s.Transcript != "" {
		// Only looked at, never opened: the agent chose the path.
		if fi, err := os.Stat(s.Transcript); err != nil || !fi.Mode().IsRegular() {
			return "", false
		}
	}
	return s.Conversation, true
}

// Summary sums up the agents of a session from their events alone, without
// asking tmux whether their panes still run: for lists of sessions.
type Summary struct {
	// Events tells whether the agents were started to report their
	// events: without, the counts say nothing.
	Events                   bool
	Waiting, Asking, Working int
	// Last is when the last event of any agent arrived, zero for none.
	Last time.Time
}

// NeedPerson is how many agents wait for a person.
func (s Summary) NeedPerson() int { return s.Waiting + s.Asking }

// Summarize reads the activity directory dir into a Summary; a directory
// that cannot be read sums up to nothing.
func Summarize(dir string) Summary {
	var sum Summary
	run, states, err := Read(dir)
	if err != nil {
		return sum
	}
	sum.Events = run.Events
	for _, s := range states {
		if s.EventAt.After(sum.Last) {
			sum.Last = s.EventAt
		}
	}
	for _, id := range roster.IDs() {
		s, ok := states[id]
		switch act, _ := run.Of(s, ok); act {
		case Waiting:
			sum.Waiting++
		case Asking:
			sum.Asking++
		case Working:
			sum.Working++
		}
	}
	return sum
}

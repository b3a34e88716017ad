package isolated

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/google/uuid"

	"mas/envfile"
	"mas/internal/activity"
	"mas/internal/binlink"
	"mas/internal/layout"
	"mas/internal/report"
	"mas/internal/roster"
	"mas/internal/safefile"
	"mas/internal/undo"
	"mas/templates"
	"mas/tmux"
)

// CreateOptions say how to create a session.
type CreateOptions struct {
	Root     string           // $ROOT: templates are read and sessions/ is written here
	ID       string           // MAS_SESSION_ID, or "" for a new random id
	Config   []byte           // content of --config, or nil; must be valid JSON
	Command  string           // agent command (MAS_AGENT_COMMAND or "clauded")
	Shell    string           // the user's shell
	PaneLogs bool             // append each pane's output to logs/agent-NN.log
	Tmux     tmux.Client      //
	Report   *report.Reporter // tells people what happens
	Now      func() time.Time
	NewID    func() (string, error) // draws an id; nil means a random UUID v4
	// Wiring says how the agents report their events; its Continue is
	// for Resume, and ResumeFlag the flag that continues a conversation.
	Wiring     activity.Wiring
	ResumeFlag string
	// Mas, when set, is the binary the panes find first on their PATH as
	// mas and mas_refactored.sh (package binlink), before Path, the PATH
	// of the process that starts them.
	Mas, Path string
}

// StepError names the step of Create that failed; everything done before
// it has been undone, or it comes in an *undo.Error that says what was
// not.
type StepError struct {
	Step string
	Err  error
}

func (e *StepError) Error() string { return e.Step + ": " + e.Err.Error() }
func (e *StepError) Unwrap() error { return e.Err }

// Create makes a new session: its directory with copies of the templates,
// its .session, metadata.json and config.json, its registry entry and its
// tmux session with the thirteen agents. It returns the session once every
// agent's pane exists. On failure nothing is left: no tmux session, no
// directory, no registry entry.
func Create(ctx context.Context, o CreateOptions) (*Session, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Config != nil && !json.Valid(o.Config) {
		return nil, &StepError{"read config", errors.New("not valid JSON")}
	}
	// The tmux version is checked while an id is drawn, before anything
	// is written.
	// A version that passed is remembered once a session is made
	// (tmux.CheckVersionCached).
	remember := func() {}
	version := make(chan error, 1)
	go func() {
		var err error
		_, remember, err = tmux.CheckVersionCached(ctx, o.Tmux, versionCache(o.Root))
		version <- err
	}()
	for range 10 {
		id, err := pickID(ctx, o)
		if version != nil {
			if verr := <-version; verr != nil {
				return nil, &StepError{"check tmux", verr}
			}
			version = nil
		}
		if err != nil {
			return nil, err
		}
		s, err := create(ctx, o, id)
		// A random id whose tmux name another session has: draw again.
		if o.ID == "" && (errors.Is(err, layout.ErrDuplicate) || errors.As(err, new(*takenError))) {
			continue
		}
		if err == nil {
			remember()
		}
		return s, err
	}
	return nil, &StepError{"generate session id", errors.New("no free tmux session name found")}
}

// create makes the session with the given id, step by step; when a step
// fails, everything done before it is undone.
func create(ctx context.Context, o CreateOptions, id string) (*Session, error) {
	s := newSession(o, id)
	marker, err := claim(ctx, o.Root, id)
	if err != nil {
		return nil, err
	}
	defer marker.Close()
	var u undo.List
	u.Add("remove session directory", func(context.Context) error { return os.RemoveAll(s.Dir) })
	entry := s.entry()
	if step, err := writeWorkspace(ctx, o, s, entry, &u); err != nil {
		return nil, fail(ctx, &u, step, err)
	}
	crashPoint("register")
	// From here on the agents may run, and write: prune must keep the
	// session, whatever becomes of this process.
	if err := setMarker(marker, markerAgents); err != nil {
		return nil, fail(ctx, &u, "mark session as starting", err)
	}
	if err := startAgents(ctx, o, s, &u); err != nil {
		return nil, fail(ctx, &u, "start tmux session", err)
	}
	crashPoint("tmux")
	if step, err := activate(ctx, o, s, entry); err != nil {
		return nil, fail(ctx, &u, step, err)
	}
	// The session is active: the marker has done its work.
	os.Remove(filepath.Join(s.Dir, markerName))
	s.logEvent(o.Now(), string(Active), o.Report)
	return s, nil
}

// fail undoes what a create, resume or remove has done so far (u) and
// returns the error of the step that failed, with what was not undone.
func fail(ctx context.Context, u *undo.List, step string, err error) error {
	return u.Fail(ctx, &StepError{step, err})
}

// newSession is the session id of o.Root as create starts it.
func newSession(o CreateOptions, id string) *Session {
	dir := Dir(o.Root, id)
	return &Session{
		home:         dir,
		ID:           id,
		TmuxName:     TmuxName(id),
		Status:       Creating,
		CreatedAt:    timestamp(o.Now()),
		Dir:          dir,
		UnitDir:      filepath.Join(dir, "unit"),
		WorkflowsDir: filepath.Join(dir, "workflows"),
		Root:         o.Root,
		Mode:         layout.Isolated,
	}
}

// writeWorkspace copies the templates into the session directory while it
// writes the session's own files and registers it; it returns the name of
// the step that failed.
func writeWorkspace(ctx context.Context, o CreateOptions, s *Session, entry indexEntry, u *undo.List) (string, error) {
	o.Report.Infof("Creating session workspace: %s", s.Dir)
	copied := make(chan error, 1)
	go func() { copied <- templates.Install(o.Root, s.UnitDir, s.WorkflowsDir, roster.IDs()) }()
	step, err := writeFiles(ctx, o, s, entry, u)
	if err := <-copied; err != nil {
		return "copy templates", err
	}
	crashPoint("templates")
	return step, err
}

// writeFiles writes the logs directory, config.json, .session and
// metadata.json, then the registry entry.
func writeFiles(ctx context.Context, o CreateOptions, s *Session, entry indexEntry, u *undo.List) (string, error) {
	if err := os.Mkdir(filepath.Join(s.Dir, "logs"), 0o700); err != nil {
		return "create logs directory", err
	}
	if o.Config != nil {
		if err := safefile.WriteAtomic(filepath.Join(s.Dir, "config.json"), o.Config, 0o600); err != nil {
			return "write config.json", err
		}
	}
	if err := s.save(); err != nil {
		return "write session files", err
	}
	crashPoint("files")
	// A registration that fails half-way is undone as well.
	u.Add("unregister session", func(ctx context.Context) error {
		return record(ctx, o.Root, indexEntry{SessionID: s.ID}, o.Now(), o.Report)
	})
	return "register session", record(ctx, o.Root, entry, o.Now(), o.Report)
}

// startAgents creates the session's tmux session with the thirteen agents,
// adding to u how to undo it: what it wrote in their activity directory,
// and the tmux session once it is made (one of that name that it did not
// make is left alone).
func startAgents(ctx context.Context, o CreateOptions, s *Session, u *undo.List) error {
	o.Report.Infof("Starting 13 agents in tmux session %s", s.TmuxName)
	logDir := ""
	if o.PaneLogs {
		logDir = filepath.Join(s.Dir, "logs")
	}
	bin := ""
	if o.Mas != "" {
		// Left by a resume that fails, as the activity directory is: both
		// are the session's own.
		bin = s.BinDir()
		if _, err := binlink.Install(bin, o.Mas); err != nil {
			return fmt.Errorf("links to mas: %w", err)
		}
	}
	launch, err := o.Wiring.Start(s.ActivityDir(), o.Now())
	if err != nil {
		return err
	}
	u.Add("restore activity directory", func(context.Context) error { return launch.Abort() })
	err = layout.Create(ctx, o.Tmux, layout.Spec{
		Name:       s.TmuxName,
		Dir:        s.Dir,
		UnitDir:    s.UnitDir,
		LogDir:     logDir,
		Env:        envfile.Environ(s.Environment()),
		Command:    o.Command,
		Shell:      o.Shell,
		Owner:      s.Owner(),
		Settings:   launch.Settings,
		Resume:     launch.Conversations,
		ResumeFlag: o.ResumeFlag,
		Bin:        bin,
		Path:       o.Path,
	})
	if err != nil {
		return err
	}
	u.Add("kill tmux session", func(ctx context.Context) error { return layout.Kill(ctx, o.Tmux, s.TmuxName) })
	return launch.Started()
}

// activate marks the session active in its files and in the registry,
// which are separate files, written at the same time.
func activate(ctx context.Context, o CreateOptions, s *Session, entry indexEntry) (string, error) {
	s.Status = Active
	saved := make(chan error, 1)
	go func() { saved <- s.save() }()
	entry.Status = Active
	err := record(ctx, o.Root, entry, o.Now(), o.Report)
	if serr := <-saved; serr != nil {
		return "write session files", serr
	}
	return "register session", err
}

// takenError is an id whose tmux name mas-<first 8> belongs to a session
// directory already there, running or stopped: the two would share a tmux
// session, and the second would take over the first one's messages and
// stops.
type takenError struct{ name, other, dir string }

func (e *takenError) Error() string {
	return fmt.Sprintf("tmux name %s is taken by session %s in %s", e.name, e.other, e.dir)
}

// claim makes the directory of session id and its creation marker, while
// holding the registry lock: the id's tmux name must belong to no session
// directory, and prune must never see the directory without a held
// marker. It returns the marker, to be closed when create returns.
func claim(ctx context.Context, root, id string) (*os.File, error) {
	if err := ensureSessionsDir(root); err != nil {
		if errors.As(err, new(*safefile.Error)) {
			return nil, &StepError{"check session registry", err}
		}
		return nil, &StepError{"create " + sessionsDir(root), err}
	}
	var marker *os.File
	dir := Dir(root, id)
	err := locked(ctx, root, func() error {
		if err := checkRegistry(root); err != nil {
			return &StepError{"check session registry", err}
		}
		if other, err := owner(root, TmuxName(id)); err != nil {
			return &StepError{"check session id", err}
		} else if other == id {
			return &StepError{"check session id", fmt.Errorf("session %s already exists in %s", id, sessionsDir(root))}
		} else if other != "" {
			return &StepError{"check session id", &takenError{TmuxName(id), other, sessionsDir(root)}}
		}
		if err := os.Mkdir(dir, 0o700); err != nil {
			return &StepError{"create session directory", err}
		}
		crashPoint("mkdir")
		f, err := holdMarker(dir, markerWorkspace)
		if err != nil {
			return &StepError{"create session directory", undo.With(err, os.Remove(dir))}
		}
		marker = f
		return nil
	})
	var step *StepError
	if err != nil && !errors.As(err, &step) {
		err = &StepError{"lock session registry", err}
	}
	return marker, err
}

// owner returns the id of the session directory whose tmux name is name,
// or "": the least should there be more, the one takenError names.
func owner(root, name string) (string, error) {
	names, err := sessionNames(root)
	if err != nil {
		return "", err
	}
	found := ""
	for _, n := range names {
		if IsID(n) && TmuxName(n) == name && (found == "" || n < found) {
			found = n
		}
	}
	return found, nil
}

// pickID returns the given id after checking it is free, or draws new ids
// until one is free; nothing is written.
func pickID(ctx context.Context, o CreateOptions) (string, error) {
	if o.ID != "" {
		if err := ValidateNewID(o.ID); err != nil {
			return "", err
		}
		if _, err := os.Lstat(Dir(o.Root, o.ID)); err == nil {
			return "", &StepError{"check session id", fmt.Errorf("session %s already exists in %s", o.ID, sessionsDir(o.Root))}
		}
		// That no other session directory has its tmux name is checked
		// when its directory is made (claim).
		taken, err := layout.Exists(ctx, o.Tmux, TmuxName(o.ID))
		if err != nil {
			return "", &StepError{"check tmux session name", err}
		}
		if taken {
			return "", &StepError{"check tmux session name", fmt.Errorf("tmux session %s already exists", TmuxName(o.ID))}
		}
		return o.ID, nil
	}
	newID := o.NewID
	if newID == nil {
		newID = func() (string, error) {
			u, err := uuid.NewRandom()
			return u.String(), err
		}
	}
	// Whether its tmux name is free is found out by creating it (Create).
	id, err := newID()
	if err != nil {
		return "", &StepError{"generate session id", err}
	}
	return id, nil
}

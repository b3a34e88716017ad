package legacy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

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

// ErrRunning is returned by Create when the project's session exists;
// nothing was changed.
var ErrRunning = errors.New("session already exists")

// CreateOptions say how to start a project's session.
type CreateOptions struct {
	Root     string // the project directory: unit/, workflows/ and .mas_session live here
	Project  string // PROJECT_NAME, or "" for mas-tmux
	SkipInit bool   // do not fill a missing unit directory from the templates
	PaneLogs bool   // append each pane's output to Root/logs/agent-NN.log
	Command  string // agent command
	Shell    string // the user's shell
	Tmux     tmux.Client
	Report   *report.Reporter
	Now      func() time.Time
	Wiring   activity.Wiring // how the agents report their events
	// Mas, when set, is the binary the panes find first on their PATH as
	// mas and mas_refactored.sh (package binlink, in BinDir), before Path,
	// the PATH of the process that starts them.
	Mas, Path string
}

// Session is a running legacy session.
type Session struct {
	Name         string
	Root         string
	UnitDir      string
	WorkflowsDir string
	StartedAt    string
}

// Environment is what every pane of the session sees, and what the
// session's tmux environment holds.
func (s *Session) Environment() []envfile.Var {
	return []envfile.Var{
		{Key: "SESSION_NAME", Value: s.Name},
		{Key: "UNIT_DIR", Value: s.UnitDir},
		{Key: "WORKFLOWS_DIR", Value: s.WorkflowsDir},
		{Key: "MAS_SESSION_MODE", Value: string(layout.Legacy)},
		{Key: "MAS_WORKSPACE_ROOT", Value: s.Root},
	}
}

// ActivityDir is where the agents of root's legacy session report what
// they are doing (package activity).
func ActivityDir(root string) string { return filepath.Join(root, ".mas_activity") }

// BinDir holds the links that make mas and mas_refactored.sh, first on the
// panes' PATH of root's legacy session, the binary that started it
// (package binlink).
func BinDir(root string) string { return filepath.Join(root, ".mas_bin") }

// Owner is whose the tmux session of root's legacy session says it is
// (see layout.Owner).
func Owner(root string) layout.Owner { return layout.Owner{Root: root, Mode: layout.Legacy} }

// Create starts the project's session: the unit and workflow directories
// are filled from the templates where missing (unless SkipInit), the team
// is built in tmux, and .mas_session is written in the project directory.
// If the session already runs, it returns ErrRunning and changes nothing.
// A start that fails takes back what it made for the session (the links
// to mas, the logs directory, the activity files and the tmux session),
// and says what it could not; the templates it copied stay.
func Create(ctx context.Context, o CreateOptions) (*Session, error) {
	now := o.Now
	if now == nil {
		now = time.Now
	}
	_, remember, err := tmux.CheckVersionCached(ctx, o.Tmux, versionCache(o.Root))
	if err != nil {
		return nil, fmt.Errorf("check tmux: %w", err)
	}
	s := &Session{
		Name:         SessionName(o.Project),
		Root:         o.Root,
		UnitDir:      filepath.Join(o.Root, "unit"),
		WorkflowsDir: filepath.Join(o.Root, "workflows"),
		StartedAt:    now().Format("2006-01-02 15:04:05"),
	}
	// The build finds a session of that name running (it refuses to make
	// a second) when nothing before it would write: it then asks tmux
	// nothing else. Otherwise tmux is asked first, so that a start that
	// finds it running has changed nothing.
	buildChecks := writesNothing(s, o)
	if !buildChecks {
		running, err := layout.Exists(ctx, o.Tmux, s.Name)
		if err != nil {
			return nil, fmt.Errorf("check tmux session: %w", err)
		}
		if running {
			return s, ErrRunning
		}
	}
	var u undo.List
	logDir := ""
	if o.PaneLogs {
		logDir = filepath.Join(s.Root, "logs")
		made, err := layout.PrepareLogs(logDir)
		if err != nil {
			return nil, fmt.Errorf("pane logs: %w", err)
		}
		u.Add("remove pane logs", func(context.Context) error { return layout.RemoveLogs(logDir, made) })
	}
	if err := prepareUnits(s, o); err != nil {
		return nil, u.Fail(ctx, err)
	}
	bin, err := installBin(s, o, &u)
	if err != nil {
		return nil, u.Fail(ctx, fmt.Errorf("links to mas: %w", err))
	}
	launch, err := o.Wiring.Start(ActivityDir(s.Root), now())
	if err != nil {
		return nil, u.Fail(ctx, err)
	}
	u.Add("restore activity directory", func(context.Context) error { return launch.Abort() })
	if err := layout.Create(ctx, o.Tmux, layout.Spec{
		Name: s.Name, Dir: s.Root, UnitDir: s.UnitDir, LogDir: logDir, Env: envfile.Environ(s.Environment()),
		Command: o.Command, Shell: o.Shell, Owner: Owner(s.Root), Settings: launch.Settings,
		Bin: bin, Path: o.Path,
	}); err != nil {
		switch {
		case errors.Is(err, layout.ErrDuplicate) && buildChecks:
			return s, ErrRunning // and nothing was written before
		case errors.Is(err, layout.ErrDuplicate):
			// Nothing is undone: the session started meanwhile may use it.
			return nil, fmt.Errorf("start tmux session: %w", err)
		}
		return nil, u.Fail(ctx, fmt.Errorf("start tmux session: %w", err))
	}
	o.Report.Infof("Starting 13 agents in tmux session %s", s.Name)
	u.Add("kill tmux session", func(ctx context.Context) error { return layout.Kill(ctx, o.Tmux, s.Name) })
	if err := launch.Started(); err != nil {
		return nil, u.Fail(ctx, fmt.Errorf("activity directory: %w", err))
	}
	if err := s.write(); err != nil {
		return nil, u.Fail(ctx, fmt.Errorf("write .mas_session: %w", err))
	}
	remember()
	return s, nil
}

// writesNothing tells whether the steps of a start before its tmux build
// would write nothing: every agent has its directory, pane logs are off,
// and the links to mas and the activity directory are as the start would
// make them (a restart by the same binary).
func writesNothing(s *Session, o CreateOptions) bool {
	if o.PaneLogs || o.Mas != "" && !binlink.Current(BinDir(s.Root), o.Mas) || !o.Wiring.Ready(ActivityDir(s.Root)) {
		return false
	}
	return len(missingUnits(s)) == 0
}

// missingUnits lists the agents whose unit directory is missing.
func missingUnits(s *Session) []string {
	var missing []string
	for _, id := range roster.IDs() {
		if fi, err := os.Stat(filepath.Join(s.UnitDir, id)); err != nil || !fi.IsDir() {
			missing = append(missing, id)
		}
	}
	return missing
}

// versionCache is where a legacy start remembers the tmux binary that
// passed the version check (tmux.CheckVersionCached): in the activity
// directory, which the start makes and keeps; "" when that is a link or
// no directory.
func versionCache(root string) string {
	if safefile.CheckDir(ActivityDir(root)) != nil {
		return ""
	}
	return filepath.Join(ActivityDir(root), ".tmux-version")
}

// write writes the project's .mas_session, which names s as its running
// session.
func (s *Session) write() error {
	return envfile.Write(SessionFile(s.Root), []envfile.Var{
		{Key: "SESSION_NAME", Value: s.Name},
		{Key: "STARTED_AT", Value: s.StartedAt},
		{Key: "PROJECT_DIR", Value: s.Root},
		{Key: "UNIT_DIR", Value: s.UnitDir},
		{Key: "WORKFLOWS_DIR", Value: s.WorkflowsDir},
	}, sessionKeys)
}

// installBin puts the links to o.Mas in the project's BinDir, when o
// asks for them, and returns that directory ("" for none); a directory it
// made is removed by u.
func installBin(s *Session, o CreateOptions, u *undo.List) (string, error) {
	if o.Mas == "" {
		return "", nil
	}
	bin := BinDir(s.Root)
	made, err := binlink.Install(bin, o.Mas)
	if made && err == nil {
		u.Add("remove links to mas", func(context.Context) error { return os.RemoveAll(bin) })
	}
	return bin, err
}

// prepareUnits makes sure every agent has its directory: missing ones are
// filled from the templates, or reported with SkipInit.
func prepareUnits(s *Session, o CreateOptions) error {
	missing := missingUnits(s)
	if len(missing) == 0 {
		return nil
	}
	if o.SkipInit {
		return fmt.Errorf("unit directories missing in %s: %v (run without --skip-init, or mas init)", s.UnitDir, missing)
	}
	o.Report.Infof("Filling %s from the templates", s.UnitDir)
	if err := templates.Fill(s.UnitDir, s.WorkflowsDir, missing); err != nil {
		return fmt.Errorf("copy templates: %w", err)
	}
	return nil
}

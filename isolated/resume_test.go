package isolated

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mas/internal/faketmux"
	"mas/internal/layout"
	"mas/internal/safefile"
	"mas/tmux"
)

var testNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// stoppedSession creates a session on an in-memory tmux server and stops
// it; running keeps it running instead.
func stoppedSession(t *testing.T, running bool) (string, *Session, *faketmux.Server, *tmux.Recorder) {
	t.Helper()
	root := t.TempDir()
	f, rec := faketmux.New()
	o := CreateOptions{Root: root, Command: "clauded", Shell: "/bin/sh", Tmux: rec, PaneLogs: true,
		Now: func() time.Time { return testNow }}
	s, err := Create(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if !running {
		if _, err := Stop(context.Background(), rec, root, s.ID, testNow, nil); err != nil {
			t.Fatal(err)
		}
	}
	return root, s, f, rec
}

// resumeOptions are the options of a resume of s on rec.
func resumeOptions(root string, s *Session, rec *tmux.Recorder) CreateOptions {
	return CreateOptions{Root: root, ID: s.ID, Command: "clauded", Shell: "/bin/sh", Tmux: rec, PaneLogs: true,
		Now: func() time.Time { return testNow.Add(time.Hour) }}
}

// state is everything a refused or failed verb must leave as it was: each
// file under root with its mode and content (a link: its target), and the
// tmux sessions.
func state(t *testing.T, root string, f *faketmux.Server) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		line := p + " " + fi.Mode().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", sha256.Sum256(data))
		}
		out = append(out, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sessions, _ := f.Respond([]string{"list-sessions"})
	return append(out, "tmux: "+strings.TrimSpace(string(sessions)))
}

// callsTo are the calls rec recorded, from the from-th on, that begin
// with the tmux command cmd (new-session: the batch that builds a
// session).
func callsTo(rec *tmux.Recorder, from int, cmd string) [][]string {
	var out [][]string
	for _, c := range rec.Calls()[from:] {
		if c[0] == cmd {
			out = append(out, c)
		}
	}
	return out
}

func TestResumeBringsTheSessionBack(t *testing.T) {
	root, s, f, rec := stoppedSession(t, false)
	ctx := context.Background()
	r, err := Resume(ctx, resumeOptions(root, s, rec))
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != s.ID || r.TmuxName != s.TmuxName || r.Dir != s.Dir || !f.Has(s.TmuxName) {
		t.Fatalf("resumed %+v, running %v; want %s in %s", r, f.Has(s.TmuxName), s.TmuxName, s.Dir)
	}
	// The very batch Create ran: same panes, directories, environment,
	// agent command and pane logs.
	if batches := callsTo(rec, 0, "new-session"); len(batches) != 2 || !slices.Equal(batches[0], batches[1]) {
		t.Errorf("resume built %q, create %q", batches[len(batches)-1], batches[0])
	}
	if got, want := tmuxOwners(t, rec)[s.TmuxName], (layout.Owner{Root: root, Mode: "isolated", ID: s.ID}); got != want {
		t.Errorf("the resumed tmux session is marked as %v, want %v", got, want)
	}
	loaded, err := Load(root, s.ID)
	if err != nil || loaded.Status != "active" {
		t.Errorf(".session: %+v, %v", loaded, err)
	}
	var md Metadata
	data, _ := os.ReadFile(filepath.Join(s.Dir, "metadata.json"))
	if err := json.Unmarshal(data, &md); err != nil || md.Status != "active" || md.StartedAt != s.CreatedAt {
		t.Errorf("metadata.json: %+v, %v; want active, started when created", md, err)
	}
	ix, _ := readIndex(root)
	if len(ix.Sessions) != 1 || ix.Sessions[0].Status != "active" || ix.Sessions[0].SessionID != s.ID {
		t.Errorf("index: %+v", ix.Sessions)
	}
	journal, _ := os.ReadFile(filepath.Join(root, "sessions", journalName))
	want := fmt.Sprintf("%s:stopped:%d\n%s:active:%d\n", s.ID, testNow.Unix(), s.ID, testNow.Add(time.Hour).Unix())
	if !strings.HasSuffix(string(journal), want) {
		t.Errorf("journal %q, want it to end with %q", journal, want)
	}
	log, _ := os.ReadFile(filepath.Join(s.Dir, "logs", "session.log"))
	if !strings.HasSuffix(string(log), "2026-01-02T04:04:05Z "+s.TmuxName+" resumed\n") {
		t.Errorf("session.log %q", log)
	}
	if _, err := os.Lstat(filepath.Join(s.Dir, markerName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the marker is left: %v", err)
	}
	if l, _ := Describe(ctx, rec, root, s.ID); l.Status != "active" {
		t.Errorf("listed %q after resume", l.Status)
	}
}

func TestResumeRefusals(t *testing.T) {
	checkRefusals(t, []refusal{
		{true, false, nil, ErrRunning, "", "a running session is not started twice"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) { f.Add(s.TmuxName) },
			ErrNameTaken, "", "another tmux session has its name (an orphan, or someone's own): left alone"},
		{false, false, ownTmux, ErrRunning, "it is running in tmux session ",
			"issue 24.2: its tmux session, marked as its own, runs while its files say stopped (a resume killed half-way)"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			os.RemoveAll(filepath.Join(s.UnitDir, "21"))
		}, nil, "unit directory of agent 21", "agent 21 would start elsewhere"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			os.RemoveAll(s.UnitDir)
			os.Symlink(t.TempDir(), s.UnitDir)
		}, nil, "is not a directory (a symbolic link?)", "a unit directory that is a link"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			os.WriteFile(filepath.Join(s.Dir, ".session"), []byte("STATUS=$(id)\n"), 0o600)
		}, nil, ".session:1:", "an unreadable .session is never trusted"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			rewrite(t, s, "TMUX_SESSION", "victim")
		}, nil, "inconsistent: TMUX_SESSION", "an inconsistent .session is never trusted"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			rewrite(t, s, "STATUS", "creating")
		}, nil, "creation was interrupted): mas session rm removes it", "a half-made session is rm's or prune's"},
		{false, false, markerHeld, ErrBusy, "", "another process is creating or resuming it"},
		{false, false, dirIsALink, nil, "is not a directory (a symbolic link?)", "a session directory that is a link"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			os.Symlink(filepath.Join(t.TempDir(), ".bashrc"), filepath.Join(s.Dir, "logs", "agent-21.log"))
		}, safefile.ErrSymlink, "check logs directory: ", "attack: tmux would append agent 21's screen to what its log links to"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			syscall.Mkfifo(filepath.Join(s.Dir, "logs", "agent-22.log"), 0o600)
		}, safefile.ErrNotRegular, "check logs directory: ", "a log that is a FIFO would block agent 22's pane"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			os.RemoveAll(filepath.Join(s.Dir, "logs"))
			os.Symlink(t.TempDir(), filepath.Join(s.Dir, "logs"))
		}, safefile.ErrSymlink, "check logs directory: ", "a logs directory that is a link"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			os.Remove(filepath.Join(root, "sessions", journalName))
			os.Symlink("/dev/null", filepath.Join(root, "sessions", journalName))
		}, nil, "check session registry", "a journal that cannot be written is found before tmux is touched"},
	}, func(root string, s *Session, rec *tmux.Recorder, _ bool) error {
		_, err := Resume(context.Background(), resumeOptions(root, s, rec))
		return err
	})
}

// refusal is a row of a table of refused verbs: the session it starts
// from, and the error the verb must give.
type refusal struct {
	running bool
	force   bool
	edit    func(t *testing.T, root string, s *Session, f *faketmux.Server)
	is      error  // the error wraps it, or
	err     string // the error holds it
	why     string
}

// checkRefusals runs verb on the session of each row, and checks that it
// is refused as the row says and that nothing changed, in the files or in
// tmux.
func checkRefusals(t *testing.T, rows []refusal, verb func(root string, s *Session, rec *tmux.Recorder, force bool) error) {
	for _, tt := range rows {
		t.Run(tt.why, func(t *testing.T) {
			root, s, f, rec := stoppedSession(t, tt.running)
			if tt.edit != nil {
				tt.edit(t, root, s, f)
			}
			before, calls := state(t, root, f), len(rec.Calls())
			err := verb(root, s, rec, tt.force)
			switch {
			case err == nil:
				t.Fatal("not refused")
			case tt.is != nil && !errors.Is(err, tt.is), tt.err != "" && !strings.Contains(err.Error(), tt.err):
				t.Errorf("err = %v, want %v %q", err, tt.is, tt.err)
			}
			if after := state(t, root, f); !slices.Equal(before, after) {
				t.Errorf("a refusal changed something:\nbefore %q\nafter  %q", before, after)
			}
			if kills := callsTo(rec, calls, "kill-session"); len(kills) > 0 {
				t.Errorf("a refusal killed a tmux session: %q", kills)
			}
		})
	}
}

// ownTmux starts a tmux session of s's name marked as s's, as a resume
// killed once tmux built the team leaves it: s's files say stopped.
func ownTmux(t *testing.T, _ string, s *Session, f *faketmux.Server) {
	f.Add(s.TmuxName)
	f.SetOptions(s.TmuxName, s.Owner().Options()...)
}

// markerHeld makes another process seem to create or resume s.
func markerHeld(t *testing.T, _ string, s *Session, _ *faketmux.Server) {
	g, err := holdMarker(s.Dir, markerResume)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
}

// dirIsALink moves the directory of s elsewhere and puts a link to it in
// its place.
func dirIsALink(t *testing.T, _ string, s *Session, _ *faketmux.Server) {
	elsewhere := t.TempDir()
	if err := os.Rename(s.Dir, filepath.Join(elsewhere, "x")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(elsewhere, "x"), s.Dir); err != nil {
		t.Fatal(err)
	}
}

// rewrite sets key in s's .session file.
func rewrite(t *testing.T, s *Session, key, value string) {
	t.Helper()
	path := filepath.Join(s.Dir, ".session")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(l, key+"=") {
			l = key + "=" + value
		}
		lines = append(lines, l)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestResumeUndoesAHalfWayFailure(t *testing.T) {
	tests := []struct {
		fail func(root string, args []string) ([]byte, error) // answers new-session, or nil
		step string
		why  string
	}{
		{func(string, []string) ([]byte, error) {
			return []byte("%1\n%2\n"), &tmux.Error{ExitCode: 1, Stderr: "create pane failed: no space for new pane"}
		}, "start tmux session", "tmux built part of the layout"},
		{func(root string, _ []string) ([]byte, error) {
			// The index turns into a link while tmux works.
			index := filepath.Join(root, "sessions", indexName)
			os.Remove(index)
			os.Symlink("/dev/null", index)
			return nil, nil
		}, "register session", "the registry cannot be written once the agents run"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			root, s, f, rec := stoppedSession(t, false)
			run := filepath.Join(s.ActivityDir(), "run.json")
			runBefore, err := os.ReadFile(run)
			if err != nil {
				t.Fatal(err)
			}
			inner := rec.Respond
			rec.Respond = func(args []string) ([]byte, error) {
				out, err := inner(args) // the session exists, as tmux would have it
				if args[0] == "new-session" {
					if out, err := tt.fail(root, args); err != nil {
						return out, err
					}
				}
				return out, err
			}
			_, err = Resume(context.Background(), resumeOptions(root, s, rec))
			var step *StepError
			if !errors.As(err, &step) || step.Step != tt.step {
				t.Fatalf("err = %v, want a failure of step %q", err, tt.step)
			}
			if f.Has(s.TmuxName) {
				t.Error("the half-started tmux session is left running")
			}
			loaded, err := Load(root, s.ID)
			if err != nil || loaded.Status != "stopped" {
				t.Errorf(".session after the failure: %+v, %v; want stopped", loaded, err)
			}
			if data, _ := os.ReadFile(filepath.Join(s.Dir, "metadata.json")); !strings.Contains(string(data), `"status": "stopped"`) {
				t.Errorf("metadata.json after the failure: %s", data)
			}
			if _, err := os.Lstat(filepath.Join(s.Dir, markerName)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the marker is left: %v", err)
			}
			// It says when the agents that ran last were started.
			if data, _ := os.ReadFile(run); string(data) != string(runBefore) {
				t.Errorf("activity/run.json after the failure: %s, want %s", data, runBefore)
			}
		})
	}
}

// TestResumeAfterTmuxWentAway: a session whose tmux server died (its
// files still say active) is listed stopped, and can be resumed.
func TestResumeAfterTmuxWentAway(t *testing.T) {
	root, s, f, rec := stoppedSession(t, true)
	f.Respond([]string{"kill-session", "-t", tmux.Session(s.TmuxName)})
	if _, err := Resume(context.Background(), resumeOptions(root, s, rec)); err != nil || !f.Has(s.TmuxName) {
		t.Errorf("resume: %v, running %v", err, f.Has(s.TmuxName))
	}
}

// TestOnlyOneOfTwoResumesGoesOn holds the first resume inside tmux while
// the second one starts: the second is refused, the first goes on.
func TestOnlyOneOfTwoResumesGoesOn(t *testing.T) {
	root, s, f, rec := stoppedSession(t, false)
	inner := rec.Respond
	inTmux, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	rec.Respond = func(args []string) ([]byte, error) {
		if args[0] == "new-session" {
			once.Do(func() { close(inTmux); <-release })
		}
		return inner(args)
	}
	ctx := context.Background()
	first := make(chan error)
	go func() {
		_, err := Resume(ctx, resumeOptions(root, s, rec))
		first <- err
	}()
	<-inTmux
	_, err := Resume(ctx, resumeOptions(root, s, rec))
	if !errors.Is(err, ErrBusy) {
		t.Errorf("second resume while the first runs: %v, want ErrBusy", err)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatalf("first resume: %v", err)
	}
	if _, err := Resume(ctx, resumeOptions(root, s, rec)); !errors.Is(err, ErrRunning) {
		t.Errorf("resume once resumed: %v, want ErrRunning", err)
	}
	if n := len(callsTo(rec, 0, "new-session")); n != 2 || !f.Has(s.TmuxName) {
		t.Errorf("%d new-session calls (create, first resume), running %v", n, f.Has(s.TmuxName))
	}
}

// TestResumeLeavesATmuxSessionMadeMeanwhile: a tmux session of the name
// made after the check, before the agents start, is not killed.
func TestResumeLeavesATmuxSessionMadeMeanwhile(t *testing.T) {
	root, s, f, rec := stoppedSession(t, false)
	inner := rec.Respond
	rec.Respond = func(args []string) ([]byte, error) {
		out, err := inner(args)
		if args[0] == "list-sessions" {
			f.Add(s.TmuxName)
		}
		return out, err
	}
	// The state once the other tmux session is there.
	f.Add(s.TmuxName)
	before := state(t, root, f)
	f.Respond([]string{"kill-session", "-t", tmux.Session(s.TmuxName)})
	calls := len(rec.Calls())

	_, err := Resume(context.Background(), resumeOptions(root, s, rec))
	if !errors.Is(err, ErrNameTaken) {
		t.Errorf("err = %v, want ErrNameTaken", err)
	}
	if after := state(t, root, f); !slices.Equal(before, after) {
		t.Errorf("changed:\nbefore %q\nafter  %q", before, after)
	}
	if kills := callsTo(rec, calls, "kill-session"); len(kills) > 0 {
		t.Errorf("killed: %q", kills)
	}
}

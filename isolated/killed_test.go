package isolated

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mas/internal/layout"
	"mas/internal/report"
	"mas/internal/tmuxtest"
	"mas/tmux"
)

// The tests here kill a create or a resume with SIGKILL (what kill -9 and
// the OOM killer do) right after tmux built the team, and check that every
// later command reads what it left correctly. The verb runs in a process of
// its own, this test binary run again (TestKilledHelper), which says on a
// pipe when tmux has answered the batch that built the team, then waits;
// the test kills it there by its pid.

// killedEnv names, in the helper process, the verb to run: "create ROOT"
// or "resume ROOT ID".
const killedEnv = "MAS_TEST_KILLED"

// TestKilledHelper is the process killedAfterBuild starts; run alone it
// does nothing.
func TestKilledHelper(t *testing.T) {
	verb := strings.Fields(os.Getenv(killedEnv))
	if len(verb) == 0 {
		t.Skip("the process that killedAfterBuild kills")
	}
	c := &signalBuilt{Client: &tmux.Runner{Socket: "t"}, built: os.NewFile(3, "built")}
	o := CreateOptions{Root: verb[1], Command: "sleep 600", Shell: "/bin/sh", Tmux: c}
	var err error
	switch verb[0] {
	case "create":
		_, err = Create(context.Background(), o)
	case "resume":
		o.ID = verb[2]
		_, err = Resume(context.Background(), o)
	}
	t.Fatalf("%s ended (%v) before it was killed", verb[0], err)
}

// signalBuilt is a tmux client that, once a batch that makes a session has
// succeeded, writes a line to built and waits for ever.
type signalBuilt struct {
	tmux.Client
	built io.Writer
}

func (c *signalBuilt) Batch(ctx context.Context, stdin io.Reader, cmds ...[]string) ([]byte, error) {
	out, err := c.Client.Batch(ctx, stdin, cmds...)
	if err == nil && cmds[0][0] == "new-session" {
		io.WriteString(c.built, "built\n")
		select {}
	}
	return out, err
}

// killedAfterBuild runs verb (see killedEnv) on the tmux server of r in a
// process of its own, and kills that process with SIGKILL once tmux has
// built the team.
func killedAfterBuild(t *testing.T, r *tmux.Runner, verb ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestKilledHelper$", "-test.count=1")
	cmd.Env = append(r.Env, killedEnv+"="+strings.Join(verb, " "))
	cmd.ExtraFiles = []*os.File{pw}
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	line, _ := bufio.NewReader(pr).ReadString('\n')
	if line != "built\n" {
		cmd.Wait()
		t.Fatalf("%s ended before tmux built the team:\n%s", verb[0], out.String())
	}
	cmd.Process.Kill()
	cmd.Wait()
}

// runningNames are the tmux sessions of r.
func runningNames(t *testing.T, r *tmux.Runner) map[string]bool {
	t.Helper()
	refs, err := layout.ListSessions(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return layout.RefNames(refs)
}

// listedStatus is the status and error session list shows for id.
func listedStatus(t *testing.T, r *tmux.Runner, root, id string) string {
	t.Helper()
	list, tmuxErr, err := List(context.Background(), r, root)
	if err != nil || tmuxErr != nil {
		t.Fatal(tmuxErr, err)
	}
	for _, l := range list {
		if l.ID == id {
			if l.Error != "" {
				return string(l.Status) + " (" + l.Error + ")"
			}
			return string(l.Status)
		}
	}
	return "not listed"
}

// killedResume creates a session of root on r, stops it, writes some
// work into it and resumes it in a process killed once tmux built the
// team.
func killedResume(t *testing.T, r *tmux.Runner, root string) (s *Session, work string) {
	t.Helper()
	ctx := context.Background()
	s, err := Create(ctx, CreateOptions{Root: root, Command: "sleep 600", Shell: "/bin/sh", Tmux: r})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Stop(ctx, r, root, s.ID, time.Now(), nil); err != nil {
		t.Fatal(err)
	}
	work = filepath.Join(s.UnitDir, "00", "work.txt")
	os.WriteFile(work, []byte("the agents' work"), 0o600)
	killedAfterBuild(t, r, "resume", root, s.ID)
	if !runningNames(t, r)[s.TmuxName] {
		t.Fatalf("the killed resume left no tmux session %s", s.TmuxName)
	}
	if got, _ := Load(root, s.ID); got.Status != "stopped" {
		t.Fatalf("the killed resume's files say %q, want stopped (what it was killed before changing)", got.Status)
	}
	return s, work
}

// TestKilledResume (issue 24, point 2): a resume killed once tmux built the
// team leaves its agents running while every file says stopped. They run
// for every later command: list shows the session active, rm without
// --force and resume refuse, prune keeps it, stop ends them.
func TestKilledResume(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx := context.Background()
	root := t.TempDir()
	s, work := killedResume(t, r, root)
	if got := listedStatus(t, r, root, s.ID); got != "active" {
		t.Errorf("session list shows the running session %q, want active", got)
	}
	if l, err := Describe(ctx, r, root, s.ID); err != nil || l.Status != "active" {
		t.Errorf("session show: %q, %v; want active", l.Status, err)
	}
	if _, err := Remove(ctx, r, root, s.ID, false, time.Now(), nil); !errors.Is(err, ErrRunning) {
		t.Errorf("rm without --force of a session whose agents run: %v, want ErrRunning", err)
	}
	if _, err := os.Stat(work); err != nil {
		t.Fatalf("the agents' work after rm: %v", err)
	}
	if _, err := Resume(ctx, CreateOptions{Root: root, ID: s.ID, Command: "sleep 600", Shell: "/bin/sh", Tmux: r}); !errors.Is(err, ErrRunning) {
		t.Errorf("resume of a session whose agents run: %v, want ErrRunning", err)
	}
	if removed, _, err := Prune(ctx, r, root, time.Now(), nil); err != nil || len(removed) != 0 {
		t.Errorf("prune: %v, %v; want nothing removed", removed, err)
	}
	if _, err := Stop(ctx, r, root, s.ID, time.Now(), nil); err != nil {
		t.Fatal(err)
	}
	if runningNames(t, r)[s.TmuxName] {
		t.Errorf("stop left tmux session %s", s.TmuxName)
	}
	if got := listedStatus(t, r, root, s.ID); got != "stopped" {
		t.Errorf("after stop: %q, want stopped", got)
	}
}

// TestKilledResumeMarker (issue 24, point 3): the marker a killed resume
// leaves is cleared by the stop that ends its agents, and prune never
// takes the session for a half-made one, even when its .session is away
// for a moment (moved to be edited), marker or not.
func TestKilledResumeMarker(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx := context.Background()
	for _, stop := range []bool{true, false} {
		root := t.TempDir()
		s, work := killedResume(t, r, root)
		if stop {
			if _, err := Stop(ctx, r, root, s.ID, time.Now(), nil); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Lstat(filepath.Join(s.Dir, markerName)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the killed resume's marker after stop: %v, want it cleared", err)
			}
		} else {
			layout.Kill(ctx, r, s.TmuxName) // ended by hand: the marker stays
		}
		if err := os.Rename(filepath.Join(s.Dir, ".session"), filepath.Join(t.TempDir(), ".session")); err != nil {
			t.Fatal(err)
		}
		if removed, _, err := Prune(ctx, r, root, time.Now(), nil); err != nil || len(removed) != 0 {
			t.Errorf("stopped %v: prune of a session whose .session is away: %v, %v; want nothing removed", stop, removed, err)
		}
		if _, err := os.Stat(work); err != nil {
			t.Errorf("stopped %v: the agents' work after prune: %v", stop, err)
		}
	}
}

// TestKilledCreate (issue 24): a create killed once tmux built the team
// leaves its agents running while its files say creating. They run for
// every later command, as after a killed resume; once they are gone, prune
// still keeps what they may have written, and says how to remove it.
func TestKilledCreate(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx := context.Background()
	root := t.TempDir()
	killedAfterBuild(t, r, "create", root)
	ids, err := IDs(root)
	if err != nil || len(ids) != 1 {
		t.Fatalf("sessions after the killed create: %v, %v", ids, err)
	}
	id := ids[0]
	if got := listedStatus(t, r, root, id); got != "active" {
		t.Errorf("session list shows the running session %q, want active", got)
	}
	if _, err := Remove(ctx, r, root, id, false, time.Now(), nil); !errors.Is(err, ErrRunning) {
		t.Errorf("rm without --force of a session whose agents run: %v, want ErrRunning", err)
	}
	if removed, _, err := Prune(ctx, r, root, time.Now(), nil); err != nil || len(removed) != 0 {
		t.Errorf("prune: %v, %v; want nothing removed", removed, err)
	}

	// Its tmux session ended by other means: the creation is still
	// interrupted, and the agents' work stays.
	work := filepath.Join(Dir(root, id), "unit", "00", "work.txt")
	os.WriteFile(work, []byte("the agents' work"), 0o600)
	layout.Kill(ctx, r, TmuxName(id))
	if got := listedStatus(t, r, root, id); got != "error (creation interrupted)" {
		t.Errorf("session list after its tmux session ended: %q", got)
	}
	var warn strings.Builder
	if removed, _, err := Prune(ctx, r, root, time.Now(), report.New(&warn, false, false)); err != nil || len(removed) != 0 {
		t.Errorf("prune once its agents are gone: %v, %v; want nothing removed", removed, err)
	}
	if _, err := os.Stat(work); err != nil {
		t.Fatalf("the agents' work after prune: %v", err)
	}
	if want := "mas: warning: session " + id + " left as it is: its creation was interrupted after its agents started; mas session rm removes it\n"; warn.String() != want {
		t.Errorf("prune warns %q, want %q", warn.String(), want)
	}
	if _, err := Remove(ctx, r, root, id, false, time.Now(), nil); err != nil {
		t.Errorf("rm: %v", err)
	}
}

// interruptedKill is a tmux client whose kill-session is interrupted (as
// by Ctrl-C, which reaches tmux too) once tmux has ended the session: the
// call fails, the session is gone.
type interruptedKill struct {
	tmux.Client
	cancel context.CancelCauseFunc
}

func (c *interruptedKill) Run(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	out, err := c.Client.Run(ctx, stdin, args...)
	if err != nil || args[0] != "kill-session" {
		return out, err
	}
	c.cancel(errors.New("interrupt signal received"))
	return c.Client.Run(ctx, stdin, args...)
}

// TestStopInterruptedAfterTheKill (issue 24): a stop interrupted once tmux
// has ended the session says that it stopped it, and records it, instead of
// "cannot stop".
func TestStopInterruptedAfterTheKill(t *testing.T) {
	r := tmuxtest.Server(t)
	root := t.TempDir()
	s, err := Create(context.Background(), CreateOptions{Root: root, Command: "sleep 600", Shell: "/bin/sh", Tmux: r})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	_, err = Stop(ctx, &interruptedKill{r, cancel}, root, s.ID, time.Now(), nil)
	if runningNames(t, r)[s.TmuxName] {
		t.Fatalf("tmux session %s still runs", s.TmuxName)
	}
	if err != nil {
		t.Errorf("stop that ended tmux session %s: %v", s.TmuxName, err)
	}
	if got, _ := Load(root, s.ID); got.Status != "stopped" {
		t.Errorf("recorded %q, want stopped", got.Status)
	}
}

package notify

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// patience bounds every wait of these tests: what they wait for takes
// milliseconds.
const patience = time.Minute

// warnings collects what a Runner warns about.
type warnings struct {
	mu    sync.Mutex
	lines []string
}

func (w *warnings) Warnf(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines = append(w.lines, fmt.Sprintf(format, args...))
}

func (w *warnings) has(part string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.ContainsFunc(w.lines, func(l string) bool { return strings.Contains(l, part) })
}

// waitUntil waits until ok, failing the test after patience.
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(patience); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v in vain until %s", patience, what)
		}
	}
}

// exists tells whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// written tells whether the line a command writes to path is all there:
// the shell makes the file before it writes to it.
func written(path string) bool {
	data, err := os.ReadFile(path)
	return err == nil && strings.HasSuffix(string(data), "\n")
}

// gone tells whether process pid has ended: no such process, or a zombie
// nobody has reaped yet.
func gone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false // alive, and no /proc to tell a zombie
	}
	_, after, _ := strings.Cut(string(stat), ") ")
	return strings.HasPrefix(after, "Z")
}

// readPid reads the pid a command wrote to path.
func readPid(t *testing.T, path string) int {
	t.Helper()
	data, _ := os.ReadFile(path)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("%s: %q", path, data)
	}
	return pid
}

// TestEnvironmentOnly: the command learns what happened from its
// environment, where the notice's variables replace inherited ones; the
// agent's text is in no command line, and no shell reads it as code.
func TestEnvironmentOnly(t *testing.T) {
	dir := t.TempDir()
	var w warnings
	r := &Runner{
		Command: `ps -o args= -p $$ >"$OUT/args"; env >"$OUT/env.tmp" && mv "$OUT/env.tmp" "$OUT/env"`,
		Env:     []string{"OUT=" + dir, "PATH=" + os.Getenv("PATH"), "MAS_SESSION_ID=inherited", "KEEP=1"},
		Timeout: patience, Max: 4, Warnf: w.Warnf,
	}
	n := Notice{SessionID: "0fccadef-1111-4111-8111-111111111111", SessionName: "mas-0fccadef", AgentID: "21",
		AgentName: "Development Worker 1", Activity: "asking", Message: `Run "$(touch pwned)" and ';rm -rf x'?`}
	if !r.Notify(n) {
		t.Fatal("not run")
	}
	waitUntil(t, "the command wrote its environment", func() bool { return exists(filepath.Join(dir, "env")) })
	data, _ := os.ReadFile(filepath.Join(dir, "env"))
	env := strings.Split(string(data), "\n")
	for _, want := range append(n.Environ(), "KEEP=1") {
		if !slices.Contains(env, want) {
			t.Errorf("environment lacks %q:\n%s", want, data)
		}
	}
	if slices.Contains(env, "MAS_SESSION_ID=inherited") {
		t.Errorf("an inherited MAS_SESSION_ID is left beside the notice's:\n%s", data)
	}
	args, _ := os.ReadFile(filepath.Join(dir, "args"))
	if len(args) == 0 || strings.Contains(string(args), "touch") || strings.Contains(string(args), "Run") {
		t.Errorf("command line %q: want the command alone, without the agent's text", args)
	}
	if exists("pwned") || exists(filepath.Join(dir, "pwned")) {
		t.Error("the agent's text was run")
	}
	if len(w.lines) > 0 {
		t.Errorf("warnings: %q", w.lines)
	}
}

// TestSlowOrFailingCommandDelaysNothing: a command that hangs (with a
// child in the background) does not hold up the next notice, which runs
// while it still hangs; one that fails is told and the next runs all the
// same; the hung one is killed with its child once its time is up.
func TestSlowOrFailingCommandDelaysNothing(t *testing.T) {
	dir := t.TempDir()
	var w warnings
	r := &Runner{
		Command: `case $MAS_AGENT_ID in
			11) sleep 3600 & echo $! >"$OUT/child"; echo $$ >"$OUT/hung"; wait ;;
			12) exit 3 ;;
			*) echo "$MAS_AGENT_ID" >"$OUT/ran.$MAS_AGENT_ID" ;;
			esac`,
		Env:     []string{"OUT=" + dir, "PATH=" + os.Getenv("PATH")},
		Timeout: patience, Max: 4, Warnf: w.Warnf,
	}
	if !r.Notify(Notice{AgentID: "11", SessionName: "s", Activity: "waiting"}) {
		t.Fatal("11 not run")
	}
	waitUntil(t, "the slow command hangs", func() bool { return written(filepath.Join(dir, "child")) && written(filepath.Join(dir, "hung")) })
	hung, child := readPid(t, filepath.Join(dir, "hung")), readPid(t, filepath.Join(dir, "child"))
	if !r.Notify(Notice{AgentID: "12", SessionName: "s", Activity: "asking"}) {
		t.Fatal("12 not run")
	}
	waitUntil(t, "the failure is told", func() bool { return w.has("notify command (agent 12 of s asking) failed: exit status 3") })
	if !r.Notify(Notice{AgentID: "13", SessionName: "s", Activity: "waiting"}) {
		t.Fatal("13 not run")
	}
	waitUntil(t, "the next command ran", func() bool { return exists(filepath.Join(dir, "ran.13")) })
	if gone(hung) || gone(child) {
		t.Fatal("the slow command ended by itself: the test proves nothing")
	}

	// The server goes away: what still runs is ended, its child too.
	r.Close()
	waitUntil(t, "the slow command and its child are ended", func() bool { return gone(hung) && gone(child) })
	if r.Notify(Notice{AgentID: "13", SessionName: "s", Activity: "waiting"}) {
		t.Error("a closed runner ran a command")
	}
}

// hangCommand hangs with a child in the background, once it has written
// both pids.
const hangCommand = `sleep 3600 & echo $! >"$OUT/child.$MAS_AGENT_ID"; echo $$ >"$OUT/hung.$MAS_AGENT_ID"; wait`

// TestTimeoutEndsTheGroup: a command still running after Timeout is
// killed, with the child it left in the background, and said so.
func TestTimeoutEndsTheGroup(t *testing.T) {
	dir := t.TempDir()
	var w warnings
	r := &Runner{Command: hangCommand, Env: []string{"OUT=" + dir, "PATH=" + os.Getenv("PATH")},
		Timeout: 100 * time.Millisecond, Max: 4, Warnf: w.Warnf}
	if !r.Notify(Notice{AgentID: "21", SessionName: "s", Activity: "asking"}) {
		t.Fatal("not run")
	}
	child, hung := filepath.Join(dir, "child.21"), filepath.Join(dir, "hung.21")
	waitUntil(t, "the command hangs", func() bool { return written(child) && written(hung) })
	waitUntil(t, "the command and its child are killed", func() bool {
		return gone(readPid(t, hung)) && gone(readPid(t, child))
	})
	waitUntil(t, "the kill is told", func() bool { return w.has("notify command (agent 21 of s asking) still ran after 100ms: ended") })
}

// TestTooManyAreDropped: beyond Max running commands a notice is dropped,
// and said so, rather than queued behind them.
func TestTooManyAreDropped(t *testing.T) {
	dir := t.TempDir()
	var w warnings
	r := &Runner{Command: hangCommand, Env: []string{"OUT=" + dir, "PATH=" + os.Getenv("PATH")},
		Timeout: patience, Max: 1, Warnf: w.Warnf}
	defer r.Close()
	if !r.Notify(Notice{AgentID: "21", SessionName: "s", Activity: "asking"}) {
		t.Fatal("not run")
	}
	if r.Notify(Notice{AgentID: "22", SessionName: "s", Activity: "waiting"}) {
		t.Error("a second command ran beside the first with Max 1")
	}
	if !w.has("notify command not run (agent 22 of s waiting): 1 still running") {
		t.Errorf("warnings %q", w.lines)
	}
	if (&Runner{Max: 1, Warnf: w.Warnf}).Notify(Notice{}) {
		t.Error("no command, and yet one ran")
	}
}

package layout

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestPrepareAndRemoveLogs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "logs")
	made, err := PrepareLogs(dir)
	if err != nil || !made {
		t.Fatalf("PrepareLogs of a missing directory: made %v, %v", made, err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("logs directory: %v, %v; want 0700", fi, err)
	}
	if made, err := PrepareLogs(dir); err != nil || made {
		t.Errorf("PrepareLogs of an existing directory: made %v, %v; want not made, no error", made, err)
	}
	// A failed start: tmux made some logs, one got output.
	os.WriteFile(AgentLog(dir, "00"), nil, 0o600)
	os.WriteFile(AgentLog(dir, "21"), []byte("output\n"), 0o600)
	RemoveLogs(dir, false)
	if _, err := os.Stat(AgentLog(dir, "00")); err != nil {
		t.Errorf("RemoveLogs of a directory it did not make removed a log: %v", err)
	}
	if err := RemoveLogs(dir, true); err != nil {
		t.Errorf("RemoveLogs that keeps a log with output, and so the directory: %v; want no error", err)
	}
	if _, err := os.Stat(AgentLog(dir, "00")); !os.IsNotExist(err) {
		t.Errorf("an empty log stays: %v", err)
	}
	if b, err := os.ReadFile(AgentLog(dir, "21")); err != nil || string(b) != "output\n" {
		t.Errorf("a log with output: %q, %v; want it kept", b, err)
	}
	os.Remove(AgentLog(dir, "21"))
	if err := RemoveLogs(dir, true); err != nil {
		t.Errorf("RemoveLogs of an emptied directory: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("an emptied logs directory stays: %v", err)
	}

	// A log that is a link or a FIFO is refused, and nothing is made.
	for name, plant := range map[string]func(string) error{
		"link": func(p string) error { return os.Symlink(filepath.Join(t.TempDir(), "elsewhere"), p) },
		"fifo": func(p string) error { return syscall.Mkfifo(p, 0o600) },
	} {
		dir := filepath.Join(t.TempDir(), "logs")
		os.Mkdir(dir, 0o700)
		if err := plant(AgentLog(dir, "13")); err != nil {
			t.Fatal(err)
		}
		if made, err := PrepareLogs(dir); err == nil || made {
			t.Errorf("%s as agent 13's log: made %v, %v; want refused", name, made, err)
		}
	}
	target := t.TempDir()
	link := filepath.Join(t.TempDir(), "logs")
	os.Symlink(target, link)
	if _, err := PrepareLogs(link); err == nil {
		t.Error("a logs directory that is a link is accepted")
	}
}

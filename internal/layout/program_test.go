package layout

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckProgram(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "onpath"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(bin, "notexec"), []byte("#!/bin/sh\n"), 0o644)
	// A login shell that records how it is asked and knows "aliased".
	log := filepath.Join(dir, "asked")
	shell := filepath.Join(dir, "fakesh")
	os.WriteFile(shell, []byte("#!/bin/sh\necho \"$*\" >>"+log+"\ncase \"$4\" in *aliased*) exit 0;; esac\nexit 1\n"), 0o755)

	tests := []struct {
		why, command, shell string
		err                 string // "" for none
		asked               string // what the shell was asked, "" for not run
	}{
		{"on PATH: the fast path runs no process", "onpath --flag", shell, "", ""},
		{"a path with a slash is checked as it is", filepath.Join(bin, "onpath"), shell, "", ""},
		{"an alias of the rc files counts", "aliased --x", shell, "", "-l -i -c command -v aliased >/dev/null 2>&1\n"},
		{"unknown everywhere", "nosuch --model", shell,
			"agent program not found: nosuch: not on PATH, nor an alias, function or command of " + shell +
				" as a login shell; MAS_AGENT_COMMAND sets the agent command (default clauded)",
			"-l -i -c command -v nosuch >/dev/null 2>&1\n"},
		{"a file that is not executable is not a program", "notexec", shell,
			"agent program not found: notexec: not on PATH, nor an alias, function or command of " + shell +
				" as a login shell; MAS_AGENT_COMMAND sets the agent command (default clauded)",
			"-l -i -c command -v notexec >/dev/null 2>&1\n"},
		{"a shell that cannot run cannot run the agent either", "nosuch", filepath.Join(dir, "noshell"),
			"agent program not found: nosuch: not on PATH, and " + filepath.Join(dir, "noshell") + " cannot run: fork/exec " +
				filepath.Join(dir, "noshell") + ": no such file or directory; MAS_AGENT_COMMAND sets the agent command (default clauded)", ""},
		{"not one plain command: left to the shell, unchecked", "FOO=1 nosuch", shell, "", ""},
	}
	for _, tt := range tests {
		os.Remove(log)
		var warned []string
		err := CheckProgram(context.Background(), tt.command, tt.shell, bin, nil, func(s string) { warned = append(warned, s) })
		got := ""
		if err != nil {
			got = err.Error()
			if !errors.Is(err, ErrNoProgram) {
				t.Errorf("%s: %v is not ErrNoProgram", tt.why, err)
			}
		}
		if got != tt.err {
			t.Errorf("%s: error\n%q, want\n%q", tt.why, got, tt.err)
		}
		asked, _ := os.ReadFile(log)
		if string(asked) != tt.asked {
			t.Errorf("%s: shell asked %q, want %q", tt.why, asked, tt.asked)
		}
		if len(warned) > 0 {
			t.Errorf("%s: warned %q", tt.why, warned)
		}
	}
}

func TestCheckProgramFish(t *testing.T) {
	// fish's command -v ignores functions, which is what fish aliases are.
	dir := t.TempDir()
	log := filepath.Join(dir, "asked")
	shell := filepath.Join(dir, "fish")
	os.WriteFile(shell, []byte("#!/bin/sh\necho \"$*\" >"+log+"\n"), 0o755)
	if err := CheckProgram(context.Background(), "clauded", shell, dir, nil, nil); err != nil {
		t.Fatal(err)
	}
	if asked, _ := os.ReadFile(log); string(asked) != "-l -i -c type -q clauded\n" {
		t.Errorf("asked %q", asked)
	}
}

func TestCheckProgramSlowShell(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the timeout")
	}
	dir := t.TempDir()
	shell := filepath.Join(dir, "slowsh")
	os.WriteFile(shell, []byte("#!/bin/sh\nexec /bin/sleep 30\n"), 0o755)
	ctx, cancel := context.WithTimeout(context.Background(), 200*1000*1000) // 200ms stands for the bound
	defer cancel()
	var warned []string
	err := CheckProgram(ctx, "clauded", shell, dir, nil, func(s string) { warned = append(warned, s) })
	if err != nil || len(warned) != 1 || !strings.HasPrefix(warned[0], "could not check that the agent program clauded runs: "+shell+" -l -i did not answer within ") {
		t.Errorf("err %v, warned %q: a slow profile must not refuse the start", err, warned)
	}
}

// TestCheckProgramInterrupted: an interrupt while the shell is asked ends
// the check with the interrupt, not a word of the shell being slow, and
// the line before the shell is asked says what takes the time (issue 30
// point 8).
func TestCheckProgramInterrupted(t *testing.T) {
	dir := t.TempDir()
	shell := filepath.Join(dir, "slowsh")
	os.WriteFile(shell, []byte("#!/bin/sh\nexec /bin/sleep 30\n"), 0o755)
	ctx, cancel := context.WithCancelCause(context.Background())
	var said, warned []string
	info := func(s string) {
		said = append(said, s)
		cancel(errors.New("interrupt signal received"))
	}
	err := CheckProgram(ctx, "clauded", shell, dir, info, func(s string) { warned = append(warned, s) })
	if err == nil || err.Error() != "interrupt signal received" || len(warned) != 0 {
		t.Errorf("err %v, warned %q: want the interrupt, no warning", err, warned)
	}
	want := "Checking that the agent program clauded runs: asking " + shell + " as a login shell, which reads your profile (at most 10s)"
	if len(said) != 1 || said[0] != want {
		t.Errorf("said %q, want %q", said, want)
	}
}

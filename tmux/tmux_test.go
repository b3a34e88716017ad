package tmux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mas/internal/report"
)

const hostileConf = "set -g base-index 1\nset -g pane-base-index 1\nset -g renumber-windows on\nset -g default-size 40x10\n"

// privateRunner gives the test its own tmux server: a fresh short
// TMUX_TMPDIR, a HOME holding conf as ~/.tmux.conf, TMUX and TMUX_PANE
// removed; the server is killed when the test ends.
func privateRunner(t *testing.T, conf string) *Runner {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed")
		}
		t.Skip("tmux is not installed")
	}
	dir, err := os.MkdirTemp("/tmp", "mt")
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".tmux.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "TMUX", "TMUX_PANE", "TMUX_TMPDIR", "HOME", "SHELL":
		default:
			env = append(env, kv)
		}
	}
	env = append(env, "TMUX_TMPDIR="+dir, "HOME="+home, "SHELL=/bin/sh")
	r := &Runner{Socket: "t", Env: env}
	t.Cleanup(func() {
		r.Run(context.Background(), nil, "kill-server")
		os.RemoveAll(dir)
	})
	return r
}

func TestBatchBuildsLayoutInOneProcess(t *testing.T) {
	for _, tc := range []struct{ name, conf string }{
		{"default config", ""},
		{"hostile config", hostileConf},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := privateRunner(t, tc.conf)
			ctx := context.Background()
			dirs := make([]string, 5)
			for i := range dirs {
				dirs[i] = t.TempDir()
			}
			format := "#{window_name}\t#{pane_id}"
			cmds := [][]string{
				{"new-session", "-d", "-s", "lay", "-n", "meta", "-x", "200", "-y", "50", "-c", dirs[0], "-P", "-F", format, "--", "sleep", "600"},
				{"new-window", "-d", "-t", SessionWindows("lay"), "-n", "design", "-c", dirs[1], "-P", "-F", format, "--", "sleep", "600"},
			}
			for _, d := range dirs[2:] {
				cmds = append(cmds,
					[]string{"split-window", "-t", Window("lay", "design"), "-c", d, "-P", "-F", format, "--", "sleep", "600"},
					[]string{"select-layout", "-t", Window("lay", "design"), "tiled"})
			}
			out, err := r.Batch(ctx, nil, cmds...)
			if err != nil {
				t.Fatal(err)
			}
			created := strings.Split(strings.TrimSpace(string(out)), "\n")
			if len(created) != 5 {
				t.Fatalf("batch printed %d pane lines, want 5:\n%s", len(created), out)
			}
			list, err := r.Run(ctx, nil, "list-panes", "-s", "-t", Session("lay"), "-F", "#{window_name}\t#{pane_id}\t#{pane_start_path}")
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(list)), "\n")
			if len(lines) != 5 {
				t.Fatalf("list-panes: %d panes, want 5:\n%s", len(lines), list)
			}
			byID := map[string]string{}
			for _, l := range lines {
				f := strings.Split(l, "\t")
				byID[f[1]] = f[0] + " " + f[2]
			}
			for i, c := range created {
				win, id, _ := strings.Cut(c, "\t")
				want := win + " " + dirs[i]
				if byID[id] != want {
					t.Errorf("pane %s = %q, want %q", id, byID[id], want)
				}
			}
		})
	}
}

func TestRunFailureIsTyped(t *testing.T) {
	r := privateRunner(t, "")
	ctx := context.Background()
	if _, err := r.Run(ctx, nil, "new-session", "-d", "-s", "here"); err != nil {
		t.Fatal(err)
	}
	_, err := r.Run(ctx, nil, "has-session", "-t", Session("her"))
	var te *Error
	if !errors.As(err, &te) {
		t.Fatalf("has-session of a prefix: err = %v, want *Error (exact targets must not prefix-match)", err)
	}
	if te.ExitCode != 1 || !strings.Contains(te.Stderr, "can't find session") {
		t.Errorf("ExitCode=%d Stderr=%q", te.ExitCode, te.Stderr)
	}
	if want := []string{"tmux", "-L", "t", "has-session", "-t", "=her"}; !slices.Equal(te.Args, want) {
		t.Errorf("Args = %q, want %q", te.Args, want)
	}
	var exitErr *exec.ExitError
	if !errors.As(err, &exitErr) {
		t.Errorf("error does not unwrap to *exec.ExitError: %v", err)
	}
	if got := err.Error(); !strings.HasPrefix(got, "tmux has-session: can't find session") {
		t.Errorf("Error() = %q", got)
	}
}

func TestNotFound(t *testing.T) {
	r := &Runner{Bin: filepath.Join(t.TempDir(), "tmux")}
	_, err := r.Run(context.Background(), nil, "-V")
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want ErrNotFound", err)
	}
	if _, err := CheckVersion(context.Background(), r); !errors.Is(err, ErrNotFound) {
		t.Fatalf("CheckVersion err = %v, want ErrNotFound", err)
	}
}

func fakeTmux(t *testing.T, version string) *Runner {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tmux")
	script := fmt.Sprintf("#!/bin/sh\necho 'tmux %s'\n", version)
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return &Runner{Bin: bin}
}

func TestCheckVersion(t *testing.T) {
	tests := []struct {
		version string
		tooOld  bool
	}{
		{"3.1c", true},
		{"2.9a", true},
		{"3.2", false},
		{"3.3a", false},
		{"3.7a", false},
		{"next-3.8", false},
		{"master", false},
	}
	for _, tt := range tests {
		_, err := CheckVersion(context.Background(), fakeTmux(t, tt.version))
		if tt.tooOld {
			if !errors.Is(err, ErrTooOld) || !strings.Contains(err.Error(), "(found "+tt.version+")") {
				t.Errorf("%s: err = %v, want ErrTooOld naming the version", tt.version, err)
			}
		} else if err != nil {
			t.Errorf("%s: err = %v", tt.version, err)
		}
	}
	if _, err := CheckVersion(context.Background(), privateRunner(t, "")); err != nil {
		t.Errorf("installed tmux: %v", err)
	}
}

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in           string
		major, minor int
		ok           bool
	}{
		{"tmux 3.3a\n", 3, 3, true},
		{"tmux 3.2", 3, 2, true},
		{"tmux 3.4-rc2", 3, 4, true},
		{"tmux next-3.8", 3, 8, true},
		{"tmux 10.1", 10, 1, true},
		{"tmux", 0, 0, false},
		{"tmux abc", 0, 0, false},
	}
	for _, tt := range tests {
		v, err := ParseVersion(tt.in)
		if (err == nil) != tt.ok || tt.ok && (v.Major != tt.major || v.Minor != tt.minor) {
			t.Errorf("ParseVersion(%q) = %+v, %v", tt.in, v, err)
		}
	}
}

// TestLiteralArguments proves the escaping against tmux itself: values
// ending in ";" or holding "#" arrive unchanged, alone and in a batch.
func TestLiteralArguments(t *testing.T) {
	r := privateRunner(t, "")
	ctx := context.Background()
	if _, err := r.Run(ctx, nil, "new-session", "-d", "-s", "lit"); err != nil {
		t.Fatal(err)
	}
	values := []string{"end;", `a\;`, ";", "semi;colon", "two;;", "-l", "#{pane_id}"}
	for _, v := range values {
		if _, err := r.Run(ctx, nil, "set-option", "-g", "@v", v); err != nil {
			t.Fatalf("set %q: %v", v, err)
		}
		out, err := r.Run(ctx, nil, "show-options", "-gv", "@v")
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(string(out), "\n"); got != v {
			t.Errorf("single command: %q arrived as %q", v, got)
		}
	}
	if _, err := r.Batch(ctx, nil, []string{"set-option", "-g", "@a", "x;"}, []string{"set-option", "-g", "@b", ";"}); err != nil {
		t.Fatal(err)
	}
	out, _ := r.Batch(ctx, nil, []string{"show-options", "-gv", "@a"}, []string{"show-options", "-gv", "@b"})
	if got := string(out); got != "x;\n;\n" {
		t.Errorf("batch: got %q, want %q", got, "x;\n;\n")
	}

	dir := filepath.Join(t.TempDir(), "odd#dir")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Run(ctx, nil, "new-session", "-d", "-s", "hash", "-c", EscapeFormat(dir)); err != nil {
		t.Fatal(err)
	}
	out, err := r.Run(ctx, nil, "display-message", "-p", "-t", SessionWindows("hash"), "#{session_path}")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != dir {
		t.Errorf("session_path = %q, want %q", got, dir)
	}
}

func TestTrace(t *testing.T) {
	var trace bytes.Buffer
	r := NewRunner(func(k string) string {
		return map[string]string{"MAS_TMUX_SOCKET": "priv"}[k]
	}, report.New(&trace, false, true))
	r.Bin = fakeTmux(t, "3.3a").Bin
	if _, err := r.Run(context.Background(), nil, "display-message", "-p", "a b"); err != nil {
		t.Fatal(err)
	}
	got := trace.String()
	want := fmt.Sprintf("mas: debug: %s -L priv display-message -p \"a b\" (", r.Bin)
	if !strings.HasPrefix(got, want) || !strings.HasSuffix(got, ")\n") {
		t.Errorf("trace = %q, want prefix %q", got, want)
	}
	var none bytes.Buffer
	quiet := NewRunner(func(string) string { return "" }, report.New(&none, false, false))
	quiet.Bin = r.Bin
	if _, err := quiet.Run(context.Background(), nil, "display-message", "-p", "x"); err != nil {
		t.Fatal(err)
	}
	if none.Len() != 0 || quiet.Socket != "" {
		t.Errorf("without debugging or MAS_TMUX_SOCKET: trace %q, socket %q", none.String(), quiet.Socket)
	}
}

func TestRecorder(t *testing.T) {
	rec := &Recorder{Respond: func(args []string) ([]byte, error) {
		if args[0] == "has-session" {
			return nil, &Error{ExitCode: 1}
		}
		return []byte("ok\n"), nil
	}}
	ctx := context.Background()
	rec.Run(ctx, nil, "send-keys", "-l", "--", "end;")
	rec.Batch(ctx, nil, []string{"new-session", "-d"}, []string{"kill-server"})
	if _, err := rec.Run(ctx, nil, "has-session", "-t", "=x"); err == nil {
		t.Error("Respond error not returned")
	}
	want := [][]string{
		{"send-keys", "-l", "--", `end\;`},
		{"new-session", "-d", ";", "kill-server"},
		{"has-session", "-t", "=x"},
	}
	if got := rec.Calls(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("Calls() = %q, want %q", got, want)
	}
}

func ExampleSession() {
	fmt.Println(Session("mas-1a2b3c4d"))
	fmt.Println(Window("mas-1a2b3c4d", "design"))
	fmt.Println(SessionWindows("mas-1a2b3c4d"))
	// Output:
	// =mas-1a2b3c4d
	// =mas-1a2b3c4d:=design
	// =mas-1a2b3c4d:
}

func ExampleTopLeftPane() {
	fmt.Println(TopLeftPane("mas-1a2b3c4d", "design"))
	// Output: =mas-1a2b3c4d:=design.{top-left}
}

func ExamplePane() {
	fmt.Println(Pane("$4", "%17"))
	// Output: $4:.%17
}

func ExampleEscapeFormat() {
	fmt.Println(EscapeFormat("/work/issue#12"))
	// Output: /work/issue##12
}

func ExampleBatchArgs() {
	fmt.Printf("%q\n", BatchArgs(
		[]string{"send-keys", "-t", "%3", "-l", "--", "end;"},
		[]string{"send-keys", "-t", "%3", "Enter"},
	))
	// Output: ["send-keys" "-t" "%3" "-l" "--" "end\\;" ";" "send-keys" "-t" "%3" "Enter"]
}

package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// TestManPageListsTheSpec walks the command spec: the page must have its
// header and every command, positional and flag that help shows.
func TestManPageListsTheSpec(t *testing.T) {
	page, stderr, err := runCLI(t, "man")
	if err != nil || stderr != "" {
		t.Fatalf("man: %v, stderr %q", err, stderr)
	}
	if !strings.HasPrefix(page, ".TH MAS 1 ") {
		t.Errorf("no .TH header: %.60q", page)
	}
	for _, section := range []string{"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "TARGETS", "SESSION IDS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "SEE ALSO"} {
		if !strings.Contains(page, "\n.SH "+section+"\n") {
			t.Errorf("no %s section", section)
		}
	}
	a := newTestCommandLine()
	flags := func(where string, fs []flagSpec) {
		for _, f := range fs {
			want := `\fB\-\-` + roff(f.long) + `\fR`
			if f.short != "" {
				want = `\fB\-` + f.short + `\fR, ` + want
			}
			if f.value != "" {
				want += ` \fI` + roff(f.value) + `\fR`
			}
			if !strings.Contains(page, "\n.TP\n"+want+"\n") {
				t.Errorf("%s: flag %q missing", where, want)
			}
		}
	}
	flags("mas", a.root.flags)
	var walk func(prefix string, cmds []*command)
	walk = func(prefix string, cmds []*command) {
		for _, c := range cmds {
			want := `\fB` + roff(prefix+c.name) + `\fR`
			for _, arg := range c.shownArgs() {
				want += ` \fI` + roff(arg) + `\fR`
			}
			if !strings.Contains(page, "\n.TP\n"+want+"\n"+roff(c.usage)+"\n") {
				t.Errorf("command %q missing", want)
			}
			flags(prefix+c.name, c.flags)
			walk(prefix+c.name+" ", c.subs)
		}
	}
	walk("", a.root.subs)
	if strings.Contains(page, completeCommand) {
		t.Error("the page shows the hidden " + completeCommand)
	}
}

// TestManPageTeaches: the page has a date, every command's examples, and
// titles that are titles (issue 30: "TARGETS (SEND, PEEK, LIST \-U)"
// showed a flag that does not exist, and the session ids' sentence was
// set as a title).
func TestManPageTeaches(t *testing.T) {
	page, _, err := runCLI(t, "man")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^\.TH MAS 1 "\d{4}-\d\d-\d\d" `).MatchString(page) {
		t.Errorf("no date in .TH: %.60q", page)
	}
	for _, e := range allExamples(newTestCommandLine().root) {
		if !strings.Contains(page, "\n.TP\n\\fB"+roff(e.line)+"\\fR\n"+roff(e.what)+"\n") {
			t.Errorf("example %q missing", e.line)
		}
	}
	for _, title := range regexp.MustCompile(`(?m)^\.SH (.*)$`).FindAllStringSubmatch(page, -1) {
		if strings.ContainsAny(title[1], `\:()<>`) {
			t.Errorf(".SH %s: a title with a flag or a sentence in it", title[1])
		}
	}
}

// TestManFilesAreTheDocs: each file FILES lists is one docs/files.md
// names, so the page says where mas writes what the manual says.
func TestManFilesAreTheDocs(t *testing.T) {
	docs, err := os.ReadFile(filepath.Join("..", "..", "docs", "files.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range manFiles {
		for _, path := range strings.Split(f[0], ", ") {
			name := strings.TrimSuffix(path[strings.LastIndex(strings.TrimSuffix(path, "/"), "/")+1:], "/")
			if !strings.Contains(string(docs), name) {
				t.Errorf("FILES lists %s, which docs/files.md does not name (%s)", path, name)
			}
		}
	}
}

func TestManDate(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "mas")
	if err := os.WriteFile(exe, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	built := time.Date(2025, 3, 4, 23, 0, 0, 0, time.UTC)
	if err := os.Chtimes(exe, built, built); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	commit := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.time", Value: "2024-05-06T22:30:00-02:00"}}}
	tests := []struct {
		bi   *debug.BuildInfo
		exe  string
		want string
		why  string
	}{
		{commit, exe, `"2024-05-07"`, "the commit's day, in UTC"},
		{&debug.BuildInfo{}, exe, `"2025-03-04"`, "no commit (go install from the module cache): the day the binary was written"},
		{nil, "", `"2026-01-02"`, "neither: today"},
	}
	for _, tt := range tests {
		if got := manDate(tt.bi, tt.bi != nil, tt.exe, now); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.why, got, tt.want)
		}
	}
}

// TestManPageRenders runs the page through groff, when there is one, and
// fails on any warning.
func TestManPageRenders(t *testing.T) {
	groff, err := exec.LookPath("groff")
	if err != nil {
		t.Skip("no groff")
	}
	page, _, err := runCLI(t, "man")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", "-z")
	cmd.Stdin = strings.NewReader(page)
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("groff: %v\n%s", err, out)
	}
}

func TestRoff(t *testing.T) {
	tests := []struct{ in, want, why string }{
		{"--json", `\-\-json`, "a dash is a minus sign, not a hyphen"},
		{`a\b`, `a\eb`, "a backslash is printed"},
		{".masrc here", `\&.masrc here`, "a leading dot is not a request"},
		{"'quoted'", `\&'quoted'`, "nor a leading quote"},
		{"window0 … window3", `window0 \[u2026] window3`, "groff reads Latin-1: TestManPageRenders warned"},
	}
	for _, tt := range tests {
		if got := roff(tt.in); got != tt.want {
			t.Errorf("roff(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}

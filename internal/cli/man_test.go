package cli

import (
	"os/exec"
	"strings"
	"testing"
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
	for _, section := range []string{"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "ENVIRONMENT", "EXIT STATUS"} {
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

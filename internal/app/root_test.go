package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveRoot(t *testing.T) {
	base := t.TempDir()
	project := filepath.Join(base, "project")
	sub := filepath.Join(project, "a", "b")
	jsonProject := filepath.Join(base, "jsonproj")
	exe := filepath.Join(base, "bin")
	exeWithUnit := filepath.Join(base, "tool")
	plain := filepath.Join(base, "plain")
	for _, d := range []string{sub, filepath.Join(jsonProject, "x"), exe, filepath.Join(exeWithUnit, "unit"), plain} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(project, ".masrc"), []byte("PROJECT_NAME=x\n"), 0o644)
	os.WriteFile(filepath.Join(jsonProject, "config.json"), []byte("{}"), 0o644)

	tests := []struct {
		vars      map[string]string
		cwd, exe  string
		want, why string
	}{
		{map[string]string{"MAS_ROOT": "/r1", "MAS_WORKSPACE_ROOT": "/r2"}, sub, exeWithUnit, "/r1", "MAS_ROOT first"},
		{map[string]string{"MAS_WORKSPACE_ROOT": "/r2/"}, sub, exeWithUnit, "/r2", "then MAS_WORKSPACE_ROOT"},
		{map[string]string{"MAS_ROOT": "rel"}, plain, "", filepath.Join(plain, "rel"), "relative to the working directory"},
		{nil, sub, exeWithUnit, project, "bug #10: .masrc in an ancestor is found"},
		{nil, filepath.Join(jsonProject, "x"), exeWithUnit, jsonProject, "config.json marks a root too"},
		{nil, plain, exeWithUnit, exeWithUnit, "the executable's directory when it holds unit/"},
		{nil, plain, exe, plain, "else the working directory"},
	}
	for _, tt := range tests {
		e := Env{Getenv: func(k string) string { return tt.vars[k] }, Cwd: tt.cwd, ExeDir: tt.exe}
		if got := e.Root(); got != tt.want {
			t.Errorf("%s: Root() = %q, want %q", tt.why, got, tt.want)
		}
	}
}

// TestStartMakesAMissingRootAndSaysSo: a MAS_ROOT that does not exist
// (a typo) became a new root in silence (issue 30). A start makes it, and
// its missing parents, and says so; a start that fails takes back what it
// made, and says nothing of it.
func TestStartMakesAMissingRootAndSaysSo(t *testing.T) {
	const id = "3f0c2a9e-1b2c-4d5e-8f90-123456789abc"
	tests := []struct {
		mode    Mode
		running string // a tmux session in the way of the start, or ""
		why     string
	}{
		{Legacy, "", "the legacy session's unit/ goes in the root"},
		{Isolated, "", "the isolated session's sessions/ goes in the root"},
		{Legacy, "mas-tmux", "legacy: the session already runs, nothing is made"},
		{Isolated, "mas-3f0c2a9e", "isolated: the id's tmux name is taken, nothing is made"},
	}
	for _, tt := range tests {
		base := t.TempDir()
		root := filepath.Join(base, "typo", "root")
		a, f, _, progress := testApp(t, map[string]string{"MAS_ROOT": root})
		a.Cwd = t.TempDir()
		l := Launch{Mode: tt.mode}
		if tt.running != "" {
			f.Add(tt.running)
			if tt.mode == Isolated {
				l.ID = id
			}
		}
		_, err := a.Start(context.Background(), l)
		notice := "[INFO] Created " + root + " (the root, from MAS_ROOT): it did not exist\n"
		if said := strings.Contains(progress.String(), notice); said != (tt.running == "") {
			t.Errorf("%s: progress %q; want %q in it: %v", tt.why, progress, notice, tt.running == "")
		}
		made, _ := os.ReadDir(base)
		switch {
		case tt.running == "" && (err != nil || !isDir(root)):
			t.Errorf("%s: err %v, root made: %v", tt.why, err, isDir(root))
		case tt.running != "" && len(made) != 0:
			t.Errorf("%s: err %v, but %v left in %s", tt.why, err, made, base)
		}
	}
}

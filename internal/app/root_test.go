package app

import (
	"os"
	"path/filepath"
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

package cli

import (
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"

	"mas/envfile"
)

func TestEnvHint(t *testing.T) {
	tests := []struct {
		shell envfile.Shell
		unset bool
		want  string
		why   string
	}{
		{envfile.POSIX, false, `to load these into your shell: vars=$(mas env 1612c47f) && eval "$vars"`, "fails cleanly on a wrong id"},
		{envfile.POSIX, true, `to remove these from your shell: eval "$(mas env 1612c47f --unset)"`, "the load form would set them again"},
		{envfile.Fish, false, "to load these into your shell: mas env 1612c47f --shell fish | source", "fish has no eval of $()"},
		{envfile.Fish, true, "to remove these from your shell: mas env 1612c47f --shell fish --unset | source", "set -e lines, sourced"},
	}
	for _, tt := range tests {
		if got := envHint("1612c47f", tt.shell, tt.unset); got != tt.want {
			t.Errorf("envHint(%v, unset=%v) = %q, want %q (%s)", tt.shell, tt.unset, got, tt.want, tt.why)
		}
	}
}

func TestVersionText(t *testing.T) {
	setting := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		bi   *debug.BuildInfo
		ok   bool
		want string
		why  string
	}{
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "mas", Version: "(devel)"},
			Settings: setting("vcs", "git", "vcs.revision", "d1caf84a8ac1418e9daa93b24c6047707e006281", "vcs.time", "2026-01-02T03:04:05Z", "vcs.modified", "false")},
			true, "mas version 1.0\ncommit: d1caf84a8ac1418e9daa93b24c6047707e006281\ncommit date: 2026-01-02T03:04:05Z\ngo: go1.26.0\n",
			"go build in a checkout"},
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "mas", Version: "v0.0.0-20260102030405-d1caf84a8ac1+dirty"},
			Settings: setting("vcs.revision", "d1caf84a8ac1418e9daa93b24c6047707e006281", "vcs.time", "2026-01-02T03:04:05Z", "vcs.modified", "true")},
			true, "mas version 1.0\ncommit: d1caf84a8ac1418e9daa93b24c6047707e006281 (with uncommitted changes)\ncommit date: 2026-01-02T03:04:05Z\ngo: go1.26.0\n",
			"a dirty tree says so: the commit alone is not what was built"},
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/mas", Version: "v1.2.3"}},
			true, "mas version 1.0\nbuilt by go install example.com/mas@v1.2.3 (no commit recorded)\ngo: go1.26.0\n",
			"go install module@version: no vcs settings, but a module version"},
		{&debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "mas", Version: "(devel)"}},
			true, "mas version 1.0\ncommit: unknown (built outside a git checkout or with -buildvcs=false)\ngo: go1.26.0\n",
			"never a made-up commit"},
		{nil, false, "mas version 1.0\ncommit: unknown (the binary carries no build information)\n", "ReadBuildInfo failed"},
	}
	for _, tt := range tests {
		if got := readVersion("1.0", tt.bi, tt.ok).text(); got != tt.want {
			t.Errorf("%s:\ngot  %q\nwant %q", tt.why, got, tt.want)
		}
	}
}

func TestVersionFlags(t *testing.T) {
	want, _, err := runCLI(t, "version")
	if err != nil || !strings.HasPrefix(want, "mas version \n") {
		t.Fatalf("version: %q, %v", want, err)
	}
	for _, args := range [][]string{{"--version"}, {"-v"}} {
		got, stderr, err := runCLI(t, args...)
		if err != nil || got != want || stderr != "" {
			t.Errorf("%v: stdout %q, stderr %q, %v; want the output of mas version", args, got, stderr, err)
		}
	}
	// -v is the version only before a command: no command takes it.
	if _, _, err := runCLI(t, "list", "-v"); err == nil || err.Error() != "list: unknown flag -v" {
		t.Errorf("list -v: %v, want unknown flag", err)
	}
	if _, _, err := runCLI(t, "--version", "x"); err == nil || err.Error() != `version: unexpected argument "x"` {
		t.Errorf("--version x: %v, want a usage error", err)
	}
}

// TestVersionJSON: version --json holds what the text says, a field
// that is not known left out (issue 30 point 9).
func TestVersionJSON(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "mas", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "d1caf84"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}
	tests := []struct {
		v    versionInfo
		want string
	}{
		{readVersion("1.0", bi, true), `{"version":"1.0","commit":"d1caf84","commitDate":"2026-01-02T03:04:05Z","modified":true,"go":"go1.26.0"}`},
		{readVersion("1.0", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "example.com/mas", Version: "v1.2.3"}}, true),
			`{"version":"1.0","module":"example.com/mas@v1.2.3","go":"go1.26.0"}`},
		{readVersion("1.0", nil, false), `{"version":"1.0"}`},
	}
	for _, tt := range tests {
		data, err := json.Marshal(tt.v)
		if err != nil || string(data) != tt.want {
			t.Errorf("got %s, %v; want %s", data, err, tt.want)
		}
	}
	out, _, err := runCLI(t, "version", "--json")
	var v map[string]any
	if err != nil || json.Unmarshal([]byte(out), &v) != nil || v["version"] != "" {
		t.Errorf("version --json: %q, %v", out, err)
	}
}

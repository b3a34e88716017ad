package report

import (
	"strings"
	"sync"
	"testing"
)

func TestLines(t *testing.T) {
	tests := []struct {
		name         string
		color, debug bool
		say          func(r *Reporter)
		want         string
	}{
		{"info", false, false, func(r *Reporter) { r.Infof("Stopped session %s", "mas-1") }, "[INFO] Stopped session mas-1\n"},
		{"info in colour", true, false, func(r *Reporter) { r.Infof("x") }, "\033[1;34m[INFO]\033[0m x\n"},
		{"success in colour", true, false, func(r *Reporter) { r.Successf("Message sent to %d/%d agents", 1, 1) },
			"\033[1;32m[SUCCESS]\033[0m Message sent to 1/1 agents\n"},
		{"exists", false, false, func(r *Reporter) { r.Existsf("Session '%s' already exists", "mas-tmux") },
			"[WARNING] Session 'mas-tmux' already exists\n"},
		{"partial in colour: the original's [WARNING], not [SUCCESS] (issue 30)", true, false, func(r *Reporter) { r.Partialf("Message sent to %d/%d agents", 0, 1) },
			"\033[1;33m[WARNING]\033[0m Message sent to 0/1 agents\n"},
		{"warning is never coloured", true, false, func(r *Reporter) { r.Warnf("index %s", "rebuilt") }, "mas: warning: index rebuilt\n"},
		{"hint", false, false, func(r *Reporter) { r.Hintf("run %q", "mas env") }, "mas: hint: run \"mas env\"\n"},
		{"debug off", false, false, func(r *Reporter) { r.Debugf("tmux -V") }, ""},
		{"debug on", false, true, func(r *Reporter) { r.Debugf("tmux -V (%s)", "1ms") }, "mas: debug: tmux -V (1ms)\n"},
		{"a percent in an argument stays", false, false, func(r *Reporter) { r.Infof("%s", "100%") }, "[INFO] 100%\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			tt.say(New(&b, tt.color, tt.debug))
			if b.String() != tt.want {
				t.Errorf("got %q, want %q", b.String(), tt.want)
			}
		})
	}
}

func TestNilReporterIsSilent(t *testing.T) {
	var r *Reporter
	r.Infof("x")
	r.Successf("x")
	r.Existsf("x")
	r.Warnf("x")
	r.Hintf("x")
	r.Debugf("x")
	if r.Debugging() {
		t.Error("a nil reporter says it debugs")
	}
}

func TestColor(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	tests := []struct {
		tty  bool
		env  map[string]string
		want bool
	}{
		{true, nil, true},
		{false, nil, false},
		{true, map[string]string{"NO_COLOR": "1"}, false},
		{true, map[string]string{"TERM": "dumb"}, false},
		{true, map[string]string{"TERM": "xterm-256color"}, true},
	}
	for _, tt := range tests {
		if got := Color(tt.tty, env(tt.env)); got != tt.want {
			t.Errorf("Color(%v, %v) = %v, want %v", tt.tty, tt.env, got, tt.want)
		}
	}
}

// Lines written from several goroutines (the server's supervisor and its
// request log share one stream) never interleave inside a line.
func TestLinesStayWhole(t *testing.T) {
	var b strings.Builder
	r := New(&b, false, false)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				r.Infof("%s", strings.Repeat("x", 50))
			}
		}()
	}
	wg.Wait()
	for _, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if line != "[INFO] "+strings.Repeat("x", 50) {
			t.Fatalf("torn line %q", line)
		}
	}
}

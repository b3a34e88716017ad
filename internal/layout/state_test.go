package layout

import "testing"

func TestForegroundGroup(t *testing.T) {
	tests := []struct {
		why, stat string
		fg        int
		ok        bool
	}{
		{"a shell at its prompt", "4242 (bash) S 4200 4242 4242 34817 4242 4194560 0", 4242, true},
		{"a command with spaces and parentheses", "77 (a) b (c)) S 1 77 77 34817 90 0", 90, true},
		{"no terminal: tpgid -1", "12 (sleep) S 1 12 12 0 -1 0", 0, false},
		{"truncated", "12 (sleep) S 1", 0, false},
		{"garbage", "nothing here", 0, false},
	}
	for _, tt := range tests {
		fg, ok := foregroundGroup(tt.stat)
		if fg != tt.fg && tt.ok || ok != tt.ok {
			t.Errorf("%s: %d, %v; want %d, %v", tt.why, fg, ok, tt.fg, tt.ok)
		}
	}
}

func TestAgentStateWithoutProc(t *testing.T) {
	tests := []struct {
		why  string
		p    PaneInfo
		want State
	}{
		{"the agent in the foreground", PaneInfo{Command: "claude", Agent: "00", PID: 1}, Running},
		{"a dead pane (remain-on-exit)", PaneInfo{Command: "bash", Dead: true, Agent: "00"}, Exited},
		{"an untagged pane of the original: cannot tell", PaneInfo{Command: "bash", PID: 1}, Stopped},
		{"no pid: cannot tell", PaneInfo{Command: "bash", Agent: "00"}, Stopped},
		{"a pid that is gone: cannot tell", PaneInfo{Command: "bash", Agent: "00", PID: 1 << 30}, Stopped},
	}
	for _, tt := range tests {
		if got := AgentState(tt.p, "/bin/bash"); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.why, got, tt.want)
		}
	}
}

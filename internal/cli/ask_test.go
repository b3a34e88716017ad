package cli

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestAsk: the answer is a line of stdin, terminal or not, as the
// original's read took it (issue 26).
func TestAsk(t *testing.T) {
	tests := []struct {
		stdin  string
		tty    bool
		answer string
		err    error // nil, errNoAnswer, or errOther
		prompt bool  // shown on stderr
		why    string
	}{
		{"y\n", true, "y", nil, true, "typed on a terminal"},
		{"y\n", false, "y", nil, false, "echo y | mas stop: answered, no prompt, as read -p printed none"},
		{"y\ny\ny\n", false, "y", nil, false, "yes | mas stop: the first line"},
		{"  Y\t\n", false, "Y", nil, false, "the spaces and tabs around it are not part of it"},
		{"yes\n", false, "yes", nil, false, "a word is kept whole: the caller decides"},
		{"\n", false, "", nil, false, "an empty line is an empty answer"},
		{"My Proj\n", false, "My Proj", nil, false, "a name with a space"},
		{"", false, "", errNoAnswer, false, "bug #18: </dev/null answers nothing"},
		{"", true, "", errNoAnswer, true, "end of input typed on a terminal"},
		{"y", false, "", errNoAnswer, false, "printf y: the input ended before the line did, as read failed"},
		{strings.Repeat("y", maxAnswer+1) + "\n", false, "", errOther, false, "an endless line is cut short, not held in memory"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		a := &CommandLine{io: IO{Stdin: strings.NewReader(tt.stdin), Stderr: &stderr, StdinTTY: tt.tty}}
		got, err := a.ask("Q? ")
		switch {
		case tt.err == nil && (err != nil || got != tt.answer):
			t.Errorf("%s: %q, %v; want %q", tt.why, got, err, tt.answer)
		case tt.err == errNoAnswer && !errors.Is(err, errNoAnswer):
			t.Errorf("%s: %q, %v; want no answer", tt.why, got, err)
		case tt.err == errOther && (err == nil || errors.Is(err, errNoAnswer)):
			t.Errorf("%s: %q, %v; want an error", tt.why, got, err)
		}
		if shown := stderr.String() == "Q? "; shown != tt.prompt || !shown && stderr.Len() > 0 {
			t.Errorf("%s: stderr %q, prompt shown %v", tt.why, stderr.String(), tt.prompt)
		}
	}
}

// errOther stands for any error but errNoAnswer in TestAsk.
var errOther = errors.New("other")

// TestAskLeavesTheRest: what follows the answer stays on stdin for the
// next reader (a script that feeds mas stop its answer, then reads on).
func TestAskLeavesTheRest(t *testing.T) {
	r := strings.NewReader("y\nnext line\n")
	a := &CommandLine{io: IO{Stdin: r, Stderr: io.Discard}}
	if got, err := a.ask("Q? "); got != "y" || err != nil {
		t.Fatalf("%q, %v", got, err)
	}
	if rest, _ := io.ReadAll(r); string(rest) != "next line\n" {
		t.Errorf("left %q on stdin, want %q", rest, "next line\n")
	}
}

func TestIsYes(t *testing.T) {
	tests := []struct {
		answer string
		want   bool
		why    string
	}{
		{"y", true, "the original's"},
		{"Y", true, "the original's"},
		{"yes", true, "issue 30: the original cancelled it"},
		{"Yes", true, "issue 30: as a sentence begins"},
		{"YES", true, "any case"},
		{"", false, "Enter alone: N is the default"},
		{"n", false, "no"},
		{"yy", false, "not a word it knows"},
		{"yes please", false, "only the word"},
		{"ye", false, "not a prefix"},
	}
	for _, tt := range tests {
		if got := isYes(tt.answer); got != tt.want {
			t.Errorf("%s: isYes(%q) = %v, want %v", tt.why, tt.answer, got, tt.want)
		}
	}
}

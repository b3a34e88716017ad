package main

import (
	"fmt"
	"strings"
	"testing"
)

// show writes keys as a short text, to compare and to read.
func show(keys []key) string {
	var parts []string
	for _, k := range keys {
		switch k.kind {
		case keyRune:
			parts = append(parts, string(k.r))
		case keyEnter:
			parts = append(parts, "<enter>")
		case keyEsc:
			parts = append(parts, "<esc>")
		case keyEOF:
			parts = append(parts, "<eof>")
		case keyInterrupt:
			parts = append(parts, "<c-c>")
		case keyBackspace:
			parts = append(parts, "<bs>")
		case keyPaste:
			parts = append(parts, fmt.Sprintf("<paste %q>", k.text))
		default:
			parts = append(parts, fmt.Sprintf("<%d>", k.kind))
		}
	}
	return strings.Join(parts, " ")
}

func TestKeyReader(t *testing.T) {
	tests := []struct {
		reads []string
		want  string
		why   string
	}{
		{[]string{"hi\r"}, "h i <enter>", "Enter is CR in raw mode"},
		{[]string{"a\nb"}, "a <enter> b", "LF submits too"},
		{[]string{"\x1b[200~one\rtwo\n\x1b[201~\r"}, `<paste "one\ntwo\n"> <enter>`, "a paste keeps its line ends, as LF (tmux sends LF as CR without -r)"},
		{[]string{"\x1b[200~a\r\nb\x1b[201~"}, `<paste "a\nb">`, "CRLF in a paste is one line end"},
		{[]string{"\x1b[20", "0~x", "y\x1b[2", "01~"}, `<paste "xy">`, "paste markers cut by reads"},
		{[]string{"\x1b[200~\x03\x04\x1b\x7f\x1b[201~"}, "<paste \"\\x03\\x04\\x1b\\x7f\">", "control keys in a paste are text"},
		{[]string{"\x1b"}, "<esc>", "a lone ESC is Escape"},
		{[]string{"\x1b[A\x1bOBx"}, "x", "arrow keys (CSI and SS3) are ignored"},
		{[]string{"\x04\x03\x7f\x08"}, "<eof> <c-c> <bs> <bs>", "Ctrl-D, Ctrl-C, DEL and Ctrl-H"},
		{[]string{"\xc3", "\xa9!"}, "é !", "a UTF-8 character cut by reads"},
		{[]string{"\x01\x1ax"}, "x", "other control keys mean nothing"},
	}
	for _, tt := range tests {
		var kr keyReader
		var got []key
		for _, r := range tt.reads {
			got = append(got, kr.feed([]byte(r))...)
		}
		if s := show(got); s != tt.want {
			t.Errorf("%q: %s, want %s (%s)", tt.reads, s, tt.want, tt.why)
		}
	}
}

func TestDialogAnswer(t *testing.T) {
	tests := []struct {
		k       key
		yes, ok bool
		why     string
	}{
		{key{kind: keyRune, r: '1'}, true, true, "1. Yes"},
		{key{kind: keyRune, r: 'y'}, true, true, "y"},
		{key{kind: keyEnter}, true, true, "Enter takes the first choice"},
		{key{kind: keyRune, r: '3'}, false, true, "3. No"},
		{key{kind: keyRune, r: 'n'}, false, true, "n"},
		{key{kind: keyEsc}, false, true, "Escape"},
		{key{kind: keyRune, r: 'x'}, false, false, "no answer: the dialog stays"},
		{key{kind: keyPaste, text: "yes, and more"}, true, true, "the hazard: a paste answers with its first character"},
		{key{kind: keyPaste, text: "no thanks"}, false, true, "a paste that starts with n"},
		{key{kind: keyPaste, text: "\nfix it"}, true, true, "a paste that starts with a line end is Enter"},
		{key{kind: keyPaste, text: "hello"}, false, false, "a paste that starts with no answer is lost"},
		{key{kind: keyClosed}, false, true, "no more input denies"},
	}
	for _, tt := range tests {
		if yes, ok := dialogAnswer(tt.k); yes != tt.yes || ok != tt.ok {
			t.Errorf("%s: %v, %v; want %v, %v (%s)", show([]key{tt.k}), yes, ok, tt.yes, tt.ok, tt.why)
		}
	}
}

// TestParseArgs: the flags Claude Code takes, with their value after a
// space or "=", and the others ignored.
func TestParseArgs(t *testing.T) {
	o, err := parseArgs([]string{"--model", "opus", "-p", "--settings={}", "--verbose", "--resume", "x", "--dangerously-skip-permissions"})
	if want := (options{model: "opus", settings: "{}", resume: "x", bypass: true}); err != nil || o != want {
		t.Errorf("parseArgs: %+v, %v; want %+v", o, err, want)
	}
	if _, err := parseArgs([]string{"--model"}); err == nil {
		t.Error("--model without a value: no error")
	}
	if o, _ := parseArgs(nil); o.model != "default" {
		t.Errorf("no --model: %q", o.model)
	}
}

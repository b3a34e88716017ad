package sgr

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// show writes runs as text: each run as [text|style], the style as JSON.
func show(lines [][]Run) string {
	var b strings.Builder
	for i, runs := range lines {
		if i > 0 {
			b.WriteString("\n")
		}
		for _, r := range runs {
			st, _ := json.Marshal(r.Style)
			b.WriteString("[" + r.Text + "|" + string(st) + "]")
		}
	}
	return b.String()
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   []string
		want string
		why  string
	}{
		{[]string{"plain"}, `[plain|{}]`, "no escapes: one run of the default style"},
		{[]string{""}, ``, "an empty line has no runs"},
		{[]string{"\x1b[1m\x1b[31mred bold\x1b[0m\x1b[39m\x1b[49m plain"}, `[red bold|{"fg":1,"bold":true}][ plain|{}]`,
			"as tmux 3.3 writes bold red, then resets"},
		{[]string{"\x1b[38;5;200mp\x1b[38;5;9mq\x1b[38;5;244mr"}, `[p|{"fg":[255,0,215]}][q|{"fg":9}][r|{"fg":[128,128,128]}]`,
			"256 colours: the first 16 are the palette's, the others red, green and blue"},
		{[]string{"\x1b[38;2;10;20;30;48;5;4mtc"}, `[tc|{"fg":[10,20,30],"bg":4}]`, "true colour, then more in the same SGR"},
		{[]string{"\x1b[38:2::10:20:30mA\x1b[38:2:1:2:3mB\x1b[48:5:17mC"}, `[A|{"fg":[10,20,30]}][B|{"fg":[1,2,3]}][C|{"fg":[1,2,3],"bg":[0,0,95]}]`,
			"colons, with or without the colour space"},
		{[]string{"\x1b[4:3mcurly\x1b[4:0m\x1b[3mit\x1b[23;7;9;2mx\x1b[22;27;29;24m."}, `[curly|{"underline":true}][it|{"italic":true}][x|{"dim":true,"inverse":true,"strike":true}][.|{}]`,
			"underline styles, attributes on and off"},
		{[]string{"\x1b[92;103mb\x1b[mr"}, `[b|{"fg":10,"bg":11}][r|{}]`, "bright colours; an empty SGR resets"},
		{[]string{"\x1b[31ma", "b\x1b[0m", "c"}, `[a|{"fg":1}]` + "\n" + `[b|{"fg":1}]` + "\n" + `[c|{}]`, "a style carries to the next line, as tmux writes it"},
		{[]string{"\x1b]8;;http://evil.test/\x1b\\link\x1b]8;;\x1b\\ </span><script>x</script>"}, `[link </span><script>x</script>|{}]`,
			"an OSC 8 link: its text alone; markup is text"},
		{[]string{"\x1b]0;title\x07a\x1bPdcs\x1b\\b\x1b_apc\x1b\\c"}, `[abc|{}]`, "a title, DCS and APC strings are dropped"},
		{[]string{"\x1b[2Ja\x1b[1;2Hb\x1b[?25lc\x1b[31 md\x1b(Be\x1b7f"}, `[abcdef|{}]`, "other escapes are dropped, an SGR with an intermediate too"},
		{[]string{"\x1b[38;2;1;2;3);background:url(http://evil.test)m!", "\x1b[31;x:url(y)mz"}, `[;background:url(http://evil.test)m!|{}]` + "\n" + `[:url(y)mz|{}]`,
			"a sequence broken by text is dropped up to where it breaks, and sets no style: the rest is text"},
		{[]string{"\x1b[38;5;256mx\x1b[38;2;300;1;1my\x1b[31;1234mz"}, `[xy|{}][z|{"fg":1}]`, "out of range: ignored"},
		{[]string{"a\x1b[31", "b\x1b", "c\x1b]8;;u"}, `[a|{}]` + "\n" + `[b|{}]` + "\n" + `[c|{}]`, "a sequence cut short by the line's end"},
		{[]string{"\x1b[38;5mx\x1b[38;2;1;2my\x1b[38mz"}, `[xyz|{}]`, "an extended colour cut short"},
	}
	for _, tt := range tests {
		if got := show(Parse(tt.in)); got != tt.want {
			t.Errorf("%s: Parse(%q)\n got %s\nwant %s", tt.why, tt.in, got, tt.want)
		}
	}
}

func TestColorJSON(t *testing.T) {
	for _, c := range []Color{{}, Palette(0), Palette(15), RGB(1, 2, 255)} {
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back Color
		if err := json.Unmarshal(data, &back); err != nil || back != c {
			t.Errorf("%s read back as %+v (%v), want %+v", data, back, err, c)
		}
	}
}

// FuzzParse: whatever a screen holds, no escape reaches a run's text, and
// a run's style is numbers and flags alone.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"\x1b[1;31mx", "\x1b]8;;u\x1b\\l", "\x1b[38:2::1:2:3m", "\x1b[38;5;", "a\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, runs := range Parse(strings.Split(s, "\n")) {
			for _, r := range runs {
				if strings.ContainsRune(r.Text, 0x1b) || r.Text == "" {
					t.Fatalf("Parse(%q): run %q", s, r.Text)
				}
				st, err := json.Marshal(r.Style)
				if err != nil || strings.Trim(string(st), `{}[],:"0123456789abcdefghijklmnopqrstuvwxyz`) != "" {
					t.Fatalf("Parse(%q): style %s", s, st)
				}
			}
		}
	})
}

// TestParseSameStyleCells guards a line whose every cell has its own SGR
// that changes nothing shown (tmux writes "\e[5m" and "\e[0m…" around each
// cell when blink alternates): its text was copied again for each cell,
// memory and time the square of the line's length (seconds for one line
// of peek --lines 2000 that an agent can print).
func TestParseSameStyleCells(t *testing.T) {
	const cells = 20000
	line := strings.Repeat("\x1b[5ma\x1b[0m\x1b[39m\x1b[49mb", cells/2)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	runs := Parse([]string{line})
	runtime.ReadMemStats(&after)
	if got := show(runs); got != "["+strings.Repeat("ab", cells/2)+"|{}]" {
		t.Fatalf("Parse: got %.80s…, want one run of the default style", got)
	}
	if bytes := after.TotalAlloc - before.TotalAlloc; bytes > 100*uint64(len(line)) {
		t.Errorf("Parse of one line of %d cells, each with its own SGR, allocated %d bytes, want some times the line's %d", cells, bytes, len(line))
	}
}

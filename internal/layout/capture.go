package layout

import (
	"context"
	"crypto/rand"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"mas/internal/sgr"
	"mas/tmux"
)

// MaxCaptureLines caps the lines Capture returns per pane: tmux's default
// history-limit, 2000 lines, each of which a pane can hold.
const MaxCaptureLines = 2000

// ErrLines is the error of a line count Capture cannot serve.
var ErrLines = fmt.Errorf("the number of lines must be from 1 to %d", MaxCaptureLines)

// Capture returns the last n lines of each pane's text, its history and
// screen (trailing blank lines dropped), as the screen shows them: a line
// longer than the pane is cut into rows. It is read by one tmux process;
// panes are pane targets (PaneInfo.Target), and the map's keys. A pane
// that is gone by the time tmux reaches it, or is no longer in the
// session its target names, is absent from the map; the others are read
// all the same.
func Capture(ctx context.Context, c tmux.Client, panes []string, n int) (map[string][]string, error) {
	return NewScreens(n, false).Capture(ctx, c, panes)
}

// Capture is the package's Capture of the screens' n lines, which takes
// the panes that SnapshotScreens read already from what it read, and
// reads the others by one tmux process.
func (s *Screens) Capture(ctx context.Context, c tmux.Client, panes []string) (map[string][]string, error) {
	got, err := s.rows(ctx, c, panes, plainFlags)
	for p, lines := range got {
		for i, l := range lines {
			lines[i] = Printable(l)
		}
		got[p] = lastLines(lines, s.n, func(l string) bool { return strings.TrimSpace(l) == "" })
	}
	return got, err
}

// Line is a line of a pane read with its colours: its text, and the same
// text in runs of one style.
type Line struct {
	Text string
	Runs []sgr.Run
}

// CaptureStyled is Capture with the rows of a line that the pane wrapped
// joined into one (capture-pane -J: a page or a terminal wraps it again
// at its own width) and with the colours and attributes of the text
// (-e), which package sgr reads, every other escape dropped; the text of
// each run is made Printable. The last n rows are read, so a line may
// start before the first of them; trailing spaces without a background
// are dropped, as Capture drops them.
func CaptureStyled(ctx context.Context, c tmux.Client, panes []string, n int) (map[string][]Line, error) {
	return NewScreens(n, true).CaptureStyled(ctx, c, panes)
}

// CaptureStyled is the package's CaptureStyled of the screens' n lines,
// which takes the panes that SnapshotScreens read already from what it
// read, and reads the others by one tmux process.
func (s *Screens) CaptureStyled(ctx context.Context, c tmux.Client, panes []string) (map[string][]Line, error) {
	raw, err := s.rows(ctx, c, panes, styledFlags)
	got := make(map[string][]Line, len(raw))
	for p, rows := range raw {
		styled := sgr.Parse(rows)
		lines := make([]Line, len(styled))
		for i, runs := range styled {
			lines[i] = styledLine(runs)
		}
		got[p] = lastLines(lines, s.n, func(l Line) bool { return strings.TrimSpace(l.Text) == "" })
	}
	return got, err
}

// styledLine is a line of runs, their text made printable and the spaces
// that end it without a background dropped.
func styledLine(runs []sgr.Run) Line {
	for i := range runs {
		runs[i].Text = Printable(runs[i].Text)
	}
	for len(runs) > 0 {
		last := &runs[len(runs)-1]
		if last.Bg != (sgr.Color{}) || last.Inverse {
			break
		}
		last.Text = strings.TrimRight(last.Text, " ")
		if last.Text != "" {
			break
		}
		runs = runs[:len(runs)-1]
	}
	var text strings.Builder
	for _, r := range runs {
		text.WriteString(r.Text)
	}
	return Line{Text: text.String(), Runs: append(make([]sgr.Run, 0, len(runs)), runs...)}
}

// capture returns the rows of each pane as tmux gives them, capture-pane
// run with flags (which must hold -p), before anything is dropped or made
// printable.
//
// Each pane is read by "capture-pane" followed by a marker line that
// "display-message" prints, both in a command list of their own (the
// argument of "if-shell -F 1"): a failing command ends only its own list,
// so a pane gone since it was listed fails alone, without its marker, and
// the panes after it are still read. The marker holds a random word drawn
// for this call, which a pane's text cannot hold but by chance: whatever a
// program prints, its lines are never taken for a marker.
func capture(ctx context.Context, c tmux.Client, panes []string, n int, flags string) (map[string][]string, error) {
	if n < 1 || n > MaxCaptureLines {
		return nil, fmt.Errorf("%w: %d", ErrLines, n)
	}
	for _, p := range panes {
		if !isPaneTarget(p) {
			return nil, fmt.Errorf("capture: %q is not a pane of a session ($N:.%%N)", p)
		}
	}
	got := map[string][]string{}
	if len(panes) == 0 {
		return got, nil
	}
	nonce := rand.Text()
	cmds := make([][]string, len(panes))
	for i, p := range panes {
		cmds[i] = []string{"if-shell", "-F", "1",
			fmt.Sprintf("capture-pane %s -t '%s' -S -%d ; display-message -p '%s'", flags, p, n, marker(nonce, i))}
	}
	out, err := c.Batch(ctx, nil, cmds...)
	switch {
	case err == nil, tmux.PanesGone(err):
	case isMissing(err):
		return got, nil // the server, and every pane with it, is gone
	default:
		return nil, err
	}
	var block []string
	for line := range strings.Lines(string(out)) {
		line = strings.TrimSuffix(line, "\n")
		i, ok := markerIndex(line, nonce, len(panes))
		if !ok {
			block = append(block, line)
			continue
		}
		got[panes[i]] = block
		block = nil
	}
	return got, nil
}

// plainFlags and styledFlags are the capture-pane flags of Capture and
// CaptureStyled.
const (
	plainFlags  = "-p"
	styledFlags = "-p -e -J"
)

// marker is the line that ends the text of the i-th pane of a Capture.
func marker(nonce string, i int) string { return fmt.Sprintf("%s %d", nonce, i) }

// markerIndex tells whether a line is a marker of this Capture, and of
// which pane.
func markerIndex(line, nonce string, panes int) (int, bool) {
	rest, ok := strings.CutPrefix(line, nonce+" ")
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(rest)
	return i, err == nil && i >= 0 && i < panes && marker(nonce, i) == line
}

// lastLines drops the trailing blank lines of a pane's text (the empty
// rows of its screen) and keeps its last n lines.
func lastLines[L any](lines []L, n int, blank func(L) bool) []L {
	for len(lines) > 0 && blank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if lines == nil {
		return []L{}
	}
	return lines
}

// Printable makes text that tmux gives as it is safe to print on a
// terminal or a page: a captured line, or a name that a program or a tool
// chose (a window that tmux names after its program's argv[0], a session
// named after a directory). Bytes that are not UTF-8, control characters
// but tab (which tmux does not let into a screen or a name, but its text
// should not be trusted to lack) and the bidirectional controls
// (isBidiControl), which tmux keeps, become U+FFFD, so that showing it can
// never drive the terminal that shows it, nor reorder the text around it
// on a terminal or a page.
func Printable(line string) string {
	if plainASCII(line) {
		return line // most text is: nothing to replace, nothing to copy
	}
	line = strings.ToValidUTF8(line, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 || isBidiControl(r) {
			return utf8.RuneError
		}
		return r
	}, line)
}

// plainASCII tells whether s is printable ASCII and tabs alone, which
// Printable leaves as it is.
func plainASCII(s string) bool {
	for i := range len(s) {
		if c := s[i]; (c < 0x20 && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// isBidiControl tells whether r is one of Unicode's bidirectional
// formatting characters (UAX #9): the arabic letter mark, the left-to-right
// and right-to-left marks, the embeddings and overrides (U+202A–U+202E)
// and the isolates (U+2066–U+2069). Invisible, they make text read in
// another order than it is: "Trojan Source", CVE-2021-42574.
func isBidiControl(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// isPaneTarget tells whether s is a pane target as tmux.Pane makes it from
// tmux ids, $N:.%N: the only thing Capture and Send put in the commands
// they build, so that no text can change them, and tmux checks that the
// pane is in that session.
func isPaneTarget(s string) bool {
	session, pane, ok := strings.Cut(s, ":.")
	return ok && isID(session, '$') && isID(pane, '%')
}

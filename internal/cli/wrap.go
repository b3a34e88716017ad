package cli

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// defaultWidth is the width help is wrapped to when neither COLUMNS nor
// a terminal on stdout tells one.
const defaultWidth = 80

// minRoom is the fewest columns the second column of a line keeps; with
// less, it goes under the first.
const minRoom = 20

// helpWidth is the width help is wrapped to: COLUMNS when it is a number
// above 0, else the width of the terminal stdout is, else defaultWidth.
func (cl *CommandLine) helpWidth() int {
	if n, err := strconv.Atoi(strings.TrimSpace(cl.io.Getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	if cl.io.Columns > 0 {
		return cl.io.Columns
	}
	return defaultWidth
}

// column finds the second column of a help line: the text after the
// first run of two spaces or more that follows the indent, as in
// "  -n, --lines LINES     lines of each agent". It returns its offset in
// runes, or 0.
var column = regexp.MustCompile(`^( *\S.*?  +)\S`)

// wrap breaks the lines of text at spaces so that none is wider than
// width, unless a word alone is. A line that continues the second column
// of the line before it (the environment's entries) is first joined to
// it. Continuation lines start at the second column, or at the indent,
// and a comment's ("  # …") go on with "# ".
func wrap(text string, width int) string {
	var out []string
	for _, line := range joinContinuations(strings.Split(text, "\n")) {
		out = append(out, wrapLine(line, width)...)
	}
	return strings.Join(out, "\n")
}

// joinContinuations joins each line that starts at the second column of
// the line before it to that line.
func joinContinuations(lines []string) []string {
	var out []string
	col := 0
	for _, line := range lines {
		text := strings.TrimLeft(line, " ")
		if col > 0 && text != "" && len(line)-len(text) == col {
			out[len(out)-1] += " " + text
			continue
		}
		out = append(out, line)
		col = secondColumn(line)
	}
	return out
}

func secondColumn(line string) int {
	m := column.FindStringSubmatch(line)
	if m == nil {
		return 0
	}
	return utf8.RuneCountInString(m[1])
}

var words = regexp.MustCompile(`( *)(\S+)`)

// wrapLine breaks line into lines no wider than width, but for words
// wider than that.
func wrapLine(line string, width int) []string {
	if utf8.RuneCountInString(line) <= width {
		return []string{line}
	}
	text := strings.TrimLeft(line, " ")
	lead := line[:len(line)-len(text)]
	if col := secondColumn(line); col > 0 && width-col < minRoom {
		// Too narrow for two columns: the second goes under the first.
		r := []rune(line)
		head := strings.TrimRight(string(r[:col]), " ")
		return append(wrapLine(head, width), wrapLine(lead+"    "+string(r[col:]), width)...)
	}
	hang := hangIndent(line, len(lead), width)
	var out []string
	cur, n, fresh := lead, len(lead), true
	for _, m := range words.FindAllStringSubmatch(text, -1) {
		gap, word := m[1], m[2]
		w := utf8.RuneCountInString(word)
		if !fresh && n+len(gap)+w > width {
			out = append(out, cur)
			cur, n, gap = hang, utf8.RuneCountInString(hang), ""
		}
		cur += gap + word
		n += len(gap) + w
		fresh = false
	}
	return append(out, cur)
}

// hangIndent is what continuation lines of line begin with: the second
// column (wrapLine has made sure there is room right of it), else the
// indent, but never more than half the width.
func hangIndent(line string, lead, width int) string {
	if strings.HasPrefix(line[lead:], "# ") {
		return line[:lead] + "# "
	}
	col := secondColumn(line)
	if col == 0 {
		col = min(lead, width/2)
	}
	return strings.Repeat(" ", col)
}

package cli

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"
)

// manyRows is a header and n rows, the widest cell in the last of them,
// which ends with last.
func manyRows(n int, last string) [][]string {
	rows := [][]string{{"ID", "NAME", "MODE"}}
	for i := range n {
		rows = append(rows, []string{strconv.Itoa(i), strings.Repeat("x", i%7), "-"})
	}
	rows[n] = []string{"a wider cell than any" + last, "y", "z"}
	return rows
}

// TestWriteColumnsIsTabwriters: the table session list writes by hand is
// the one tabwriter wrote, byte for byte, whatever its cells hold.
func TestWriteColumnsIsTabwriters(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, tc := range []struct {
		name string
		rows [][]string
	}{
		{"a header alone", [][]string{{"SESSION ID", "TMUX", "STATUS"}}},
		{"rows wider than the header", [][]string{{"A", "B", "C"}, {"a longer cell", "b", "the last is never padded"}, {"x", "a wider b", ""}}},
		{"empty cells", [][]string{{"", "", ""}, {"", "b", ""}}},
		{"runes wider than a byte: counted in runes", [][]string{{"ID", "WORKSPACE", "MODE"}, {"é", "/tmp/ünïcödé/sessions", "isolated"}, {"ee", "/tmp", "-"}}},
		{"invalid UTF-8", [][]string{{"\xe9\xe9", "b", "c"}, {"a", "b", "c"}}},
		{"a cell with a tab: tabwriter's own columns", [][]string{{"a\tb", "c", "d"}, {"e", "f", "g"}}},
		{"a cell with a line feed", [][]string{{"a\nb", "c", "d"}, {"e", "f", "g"}}},
		{"a cell with a vertical tab or form feed", [][]string{{"a\vb", "c\fd", "d"}, {"e", "f", "g"}}},
		{"tabwriter's escape byte", [][]string{{"a\xffb\xff", "c", "d"}, {"e", "f", "g"}}},
		{"rows of different lengths", [][]string{{"a", "b", "c"}, {"d", "e"}, {"f", "g", "h", "i"}}},
		{"a carriage return", [][]string{{"a\rb", "c", "d"}}},
		{"thousands of rows, laid out in parts: the widest cell in the last", manyRows(3000, "")},
		{"thousands of rows, a tab in the last part", manyRows(3000, "\t")},
		{"thousands of rows, a rune wider than a byte in the last part", manyRows(3000, "é")},
		{"thousands of rows, invalid UTF-8 in the last part", manyRows(3000, "\xe9")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want strings.Builder
			tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
			for _, row := range tc.rows {
				tw.Write([]byte(strings.Join(row, "\t") + "\n"))
			}
			tw.Flush()
			var got strings.Builder
			if err := writeColumns(&got, tc.rows, 2); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("got\n%q\nwant\n%q", got.String(), want.String())
			}
		})
	}
}

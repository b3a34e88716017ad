package cli

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"mas/internal/layout"
)

// tableIDs are session ids in order.
var tableIDs = []string{
	"10000000-0000-4000-8000-000000000000",
	"20000000-0000-4000-8000-000000000000",
	"30000000-0000-4000-8000-000000000000",
	"40000000-0000-4000-8000-000000000000",
}

// tableData is a table cache file of root /r by build "1 2", of rows,
// the exceptions except.
func tableData(rows []string, except string) string {
	return summed("build\t1 2\nroot\t/r\nstamp\t1 2 3 4 5 6\t7 8 9 10 11 12\nwidths\t36 4\nexcept\t" + except +
		"\nrows\t" + fmt.Sprint(len(rows)) + "\nSESSION ID                            TMUX  MODE\n" + strings.Join(rows, "\n") + "\n")
}

// summed is a table file of text, with its sum.
func summed(text string) string { return tableMagic + "\nsum\t" + tableSum(text) + "\n" + text }

// edited is the table file data with old replaced by new, summed again:
// what was written on purpose, not by accident.
func edited(data, old, new string) string {
	_, text, _ := strings.Cut(strings.SplitN(data, "\n", 2)[1], "\n")
	return summed(strings.Replace(text, old, new, 1))
}

func row(id string) string { return id + "  x     isolated" }

// TestParseTableReadsWhatKeepWrites: a table file that keep writes
// (tableFile) is read back as it was, its rows found where they begin.
func TestParseTableReadsWhatKeepWrites(t *testing.T) {
	for _, exceptions := range [][]string{{}, {tableIDs[1], tableIDs[3]}} {
		want := keptTable{buildID: "1 2", root: "/r", stamp: "1 2 3 4 5 6\t7 8 9 10 11 12", widths: []int{36, 4}, exceptions: exceptions}
		rows := [][]string{{"SESSION ID", "TMUX", "MODE"}, {tableIDs[0], "x", "isolated"}, {tableIDs[2], "x", "isolated"}}
		got, ok := parseTable(string(tableFile(want, rows)), "/r", "1 2")
		if !ok {
			t.Fatalf("%v: the table keep writes is refused", exceptions)
		}
		if !reflect.DeepEqual(got.keptTable, want) || got.header != "SESSION ID                            TMUX  MODE\n" ||
			got.rows != row(tableIDs[0])+"\n"+row(tableIDs[2])+"\n" || !reflect.DeepEqual(got.starts, []int{0, len(row(tableIDs[0])) + 1}) {
			t.Errorf("read %+v\nwant %+v and rows %q", got, want, rows)
		}
	}
	// The file as the tests below make it, by hand.
	if _, ok := parseTable(tableData([]string{row(tableIDs[0]), row(tableIDs[2])}, tableIDs[1]+" "+tableIDs[3]), "/r", "1 2"); !ok {
		t.Error("a well formed table refused")
	}
}

// TestParseTableRefuses: a table that another binary or another root
// wrote, or that is cut, edited or out of order, is not printed.
func TestParseTableRefuses(t *testing.T) {
	good := []string{row(tableIDs[0]), row(tableIDs[2])}
	for _, tc := range []struct{ name, data, root, exe string }{
		{"another binary's", tableData(good, ""), "/r", "1 3"},
		{"another root's", tableData(good, ""), "/r/", "1 2"},
		{"an older format", strings.Replace(tableData(good, ""), tableMagic, "mas session table 1", 1), "/r", "1 2"},
		{"cut short", strings.TrimSuffix(tableData(good, ""), "\n"), "/r", "1 2"},
		{"edited by hand: its sum is not its text's", strings.Replace(tableData(good, ""), "  x  ", "  y  ", 1), "/r", "1 2"},
		{"a row less than it counts", edited(tableData(good, ""), "rows\t2", "rows\t3"), "/r", "1 2"},
		{"rows out of order", tableData([]string{row(tableIDs[2]), row(tableIDs[0])}, ""), "/r", "1 2"},
		{"a row twice", tableData([]string{row(tableIDs[0]), row(tableIDs[0])}, ""), "/r", "1 2"},
		{"a row of no session", tableData([]string{row(tableIDs[0]), "not-an-id-000000-0000-4000-8000-0000  x     isolated"}, ""), "/r", "1 2"},
		{"a row an escape", tableData([]string{row(tableIDs[0]), tableIDs[2] + "  \x1b[2J  isolated"}, ""), "/r", "1 2"},
		{"a carriage return", tableData([]string{row(tableIDs[0]) + "\r"}, ""), "/r", "1 2"},
		{"a rune wider than a byte", tableData([]string{row(tableIDs[0]) + "é"}, ""), "/r", "1 2"},
		{"an escape in the header", edited(tableData(good, ""), "MODE", "MO\x1bDE"), "/r", "1 2"},
		{"an exception that is a row", tableData(good, tableIDs[2]), "/r", "1 2"},
		{"exceptions out of order", tableData(good, tableIDs[3]+" "+tableIDs[1]), "/r", "1 2"},
		{"an exception of no session", tableData(good, "x"), "/r", "1 2"},
		{"more exceptions than listed afresh", tableData(good, strings.TrimSpace(strings.Repeat(tableIDs[1]+" ", maxTableExceptions+1))), "/r", "1 2"},
		{"widths that are no numbers", edited(tableData(good, ""), "widths\t36 4", "widths\t36 x"), "/r", "1 2"},
		{"a width past any path's", edited(tableData(good, ""), "widths\t36 4", "widths\t36 33554432"), "/r", "1 2"},
	} {
		if _, ok := parseTable(tc.data, tc.root, tc.exe); ok {
			t.Errorf("%s: parsed", tc.name)
		}
	}
}

// TestTableWritePutsEachExceptionInItsPlace: the rows listed afresh are
// laid out in the table's columns, between the rows of the ids around
// theirs, however long the table.
func TestTableWritePutsEachExceptionInItsPlace(t *testing.T) {
	for _, many := range []int{0, 3000} {
		rows := []string{row(tableIDs[0]), row(tableIDs[2])}
		for i := range many {
			rows = append(rows, row(fmt.Sprintf("5%07d-0000-4000-8000-000000000000", i)))
		}
		tb, ok := parseTable(tableData(rows, tableIDs[1]+" "+tableIDs[3]), "/r", "1 2")
		if !ok {
			t.Fatal("refused")
		}
		var got strings.Builder
		if err := tb.write(&got, [][]string{{tableIDs[1], "y", "active"}, {tableIDs[3], "zz", "isolated"}}); err != nil {
			t.Fatal(err)
		}
		want := "SESSION ID                            TMUX  MODE\n" + row(tableIDs[0]) + "\n" +
			tableIDs[1] + "  y     active\n" + row(tableIDs[2]) + "\n" + tableIDs[3] + "  zz    isolated\n"
		for _, r := range rows[2:] {
			want += r + "\n"
		}
		if got.String() != want {
			t.Errorf("%d more rows: got\n%s\nwant\n%s", many, got.String(), want)
		}
	}
}

func TestFitsColumns(t *testing.T) {
	for _, tc := range []struct {
		row  []string
		fits bool
	}{
		{[]string{"abcd", "x", "the last is never padded"}, true},
		{[]string{"abcde", "x", "y"}, false},
		{[]string{"ab", "x"}, false},
		{[]string{"ab", "é", "y"}, false},
		{[]string{"ab", "x", "y\x1b"}, false},
	} {
		if got := fitsColumns([][]string{tc.row}, []int{4, 4}); got != tc.fits {
			t.Errorf("%q: fits %v, want %v", tc.row, got, tc.fits)
		}
	}
}

// TestOnlyExceptionsRun: the table is printed while tmux runs no session
// of its rows and none that may be an orphan of the root; the
// exceptions', sessions of other names, and those whose marks say they
// are another root's or another mode's may run.
func TestOnlyExceptionsRun(t *testing.T) {
	tb, ok := parseTable(tableData([]string{row(tableIDs[0]), row(tableIDs[2])}, tableIDs[1]), "/r", "1 2")
	if !ok {
		t.Fatal("refused")
	}
	orphan := "50000000-0000-4000-8000-000000000000"
	for _, tc := range []struct {
		name  string
		ref   layout.Ref
		print bool
	}{
		{"an exception", layout.Ref{Name: "mas-20000000"}, true},
		{"a session of another name", layout.Ref{Name: "work"}, true},
		{"another root's", layout.Ref{Name: "mas-50000000", Owner: layout.Owner{Root: "/other", Mode: layout.Isolated, ID: orphan}}, true},
		{"the root's legacy session", layout.Ref{Name: "mas-50000000", Owner: layout.Owner{Root: "/r", Mode: layout.Legacy}}, true},
		{"a row's", layout.Ref{Name: "mas-30000000"}, false},
		{"a row's, marked as another root's", layout.Ref{Name: "mas-30000000", Owner: layout.Owner{Root: "/other", Mode: layout.Isolated, ID: orphan}}, false},
		{"an orphan of the root", layout.Ref{Name: "mas-50000000", Owner: layout.Owner{Root: "/r", Mode: layout.Isolated, ID: orphan}}, false},
		{"unmarked, of no session", layout.Ref{Name: "mas-50000000"}, false},
	} {
		if got := tb.onlyExceptionsRun("/r", []layout.Ref{{Name: "keeper"}, tc.ref}); got != tc.print {
			t.Errorf("%s runs: printed %v, want %v", tc.name, got, tc.print)
		}
	}
}

// TestBuildIDNote: the table is kept by the build that printed it, told
// by the Go build ID in its ELF note.
func TestBuildIDNote(t *testing.T) {
	note := func(name string, typ byte, id string) []byte {
		return append([]byte{4, 0, 0, 0, byte(len(id)), 0, 0, 0, typ, 0, 0, 0}, []byte(name+id+"\x00\x00")...)
	}
	const id = "vbpubJvJTr1rsPV8lBeY/szGGrYQ_gwHGTEiEALAH/S-pOXJWuUR6gixkMcEpy/aAdy7a3ASDxYzyYxA4bG"
	head := append(make([]byte, 100), note("Go\x00\x00", 4, id)...)
	if got := buildIDNote(head); got != id {
		t.Errorf("buildIDNote = %q", got)
	}
	for name, h := range map[string][]byte{
		"another note's type":                 note("Go\x00\x00", 3, id),
		"cut short":                           note("Go\x00\x00", 4, id)[:60],
		"no note":                             make([]byte, 4096),
		"an ID set by hand, the same for all": note("Go\x00\x00", 4, "redacted"),
		"three parts":                         note("Go\x00\x00", 4, id[:62]),
		"a part of another length":            note("Go\x00\x00", 4, id[:83]+"Gx"),
		"a character of no base64url":         note("Go\x00\x00", 4, id[:82]+"+"),
	} {
		if got := buildIDNote(append(make([]byte, 8), h...)); got != "" {
			t.Errorf("%s: %q", name, got)
		}
	}
	if runtime.GOOS == "linux" && runningBuildID() == "" {
		t.Error("the test binary has no build ID")
	}
}

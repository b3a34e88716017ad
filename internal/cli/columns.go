package cli

import (
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"mas/internal/par"
)

// writeColumns writes rows as text/tabwriter.NewWriter(w, 0, 0, padding,
// ' ', 0) writes them, one line each, their cells separated by tabs: each
// cell but the last of a row padded with spaces to padding more than the
// widest cell of its column, in runes. When every row has as many cells
// and none holds what tabwriter interprets (tabs, line and form feeds, its
// escape byte), it lays them out itself, in one pass for the widths and
// one for the text, a fraction of tabwriter's cost (session list writes a
// row per session, thousands of them); otherwise tabwriter does.
func writeColumns(w io.Writer, rows [][]string, padding int) error {
	widths, ok := columnWidths(rows)
	if !ok {
		return tabwrite(w, rows, padding)
	}
	// The rows' text, on every core when there are many (par).
	parts := make([]string, par.Parts(len(rows), rowsPerPart))
	par.Do(len(rows), rowsPerPart, func(part, from, to int) {
		parts[part] = columnsText(rows[from:to], widths, padding)
	})
	for _, text := range parts {
		if _, err := io.WriteString(w, text); err != nil {
			return err
		}
	}
	return nil
}

// rowsPerPart is the fewest rows worth a goroutine of their own.
const rowsPerPart = 1000

// columnsText is the text of rows, laid out in columns of widths.
func columnsText(rows [][]string, widths []int, padding int) string {
	size := 0
	for _, row := range rows {
		for _, c := range row {
			size += len(c) + padding
		}
		size += len(widths) * 8 // some padding beyond the widest cell's
	}
	var b strings.Builder
	b.Grow(size)
	for _, row := range rows {
		last := len(row) - 1
		for i, c := range row[:last] {
			b.WriteString(c)
			w, _ := cellWidth(c)
			b.WriteString(spaces(widths[i] + padding - w))
		}
		b.WriteString(row[last])
		b.WriteByte('\n')
	}
	return b.String()
}

// columnWidths returns the widest cell of each column but the last, in
// runes; ok false when the rows cannot be laid out by hand (writeColumns).
func columnWidths(rows [][]string) (widths []int, ok bool) {
	if len(rows) == 0 || len(rows[0]) == 0 {
		return nil, false
	}
	n := len(rows[0]) - 1
	each := make([][]int, par.Parts(len(rows), rowsPerPart))
	plain := make([]bool, len(each))
	par.Do(len(rows), rowsPerPart, func(part, from, to int) {
		each[part], plain[part] = partWidths(rows[from:to], n)
	})
	if slices.Contains(plain, false) {
		return nil, false
	}
	widths = make([]int, n)
	for _, ws := range each {
		for i, w := range ws {
			widths[i] = max(widths[i], w)
		}
	}
	return widths, true
}

// partWidths is columnWidths of some of the rows, of n columns but the
// last each.
func partWidths(rows [][]string, n int) (widths []int, ok bool) {
	widths = make([]int, n)
	for _, row := range rows {
		if len(row) != n+1 {
			return nil, false
		}
		for i, c := range row {
			w, plain := cellWidth(c)
			if !plain {
				return nil, false
			}
			if i < n {
				widths[i] = max(widths[i], w)
			}
		}
	}
	return widths, true
}

// spaces is n spaces, none for n < 1.
func spaces(n int) string {
	const run = "                                                                "
	if n < 1 {
		return ""
	}
	if n <= len(run) {
		return run[:n]
	}
	return strings.Repeat(" ", n)
}

// cellWidth is the width of cell c in runes, as tabwriter counts it;
// plain false when c holds what tabwriter interprets: a tab, a line or
// form feed, or its escape byte 0xff.
func cellWidth(c string) (width int, plain bool) {
	ascii := true
	for i := range len(c) {
		switch b := c[i]; {
		case b == '\t' || b == '\n' || b == '\v' || b == '\f' || b == 0xff:
			return 0, false
		case b >= utf8.RuneSelf:
			ascii = false
		}
	}
	if ascii {
		return len(c), true
	}
	return utf8.RuneCountInString(c), true
}

// tabwrite is writeColumns through tabwriter.
func tabwrite(w io.Writer, rows [][]string, padding int) error {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, padding, ' ', 0)
	for _, row := range rows {
		io.WriteString(tw, strings.Join(row, "\t")+"\n")
	}
	tw.Flush()
	_, err := io.WriteString(w, b.String())
	return err
}

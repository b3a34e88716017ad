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
	widths, byteWide, ok := columnWidths(rows)
	if !ok {
		return tabwrite(w, rows, padding)
	}
	// The rows' text, on every core when there are many, written a piece
	// at a time (par.Stream).
	return par.Stream(len(rows), rowsPerPart, rowsPerPiece, func(b []byte, from, to int) []byte {
		return appendColumns(b, rows[from:to], widths, padding, byteWide)
	}, func(b []byte) error {
		_, err := w.Write(b)
		return err
	})
}

const (
	// rowsPerPart is the fewest rows worth a goroutine of their own,
	// rowsPerPiece how many rows' text is made and written at once.
	rowsPerPart  = 1000
	rowsPerPiece = 256
)

// appendColumns appends to b the text of rows, laid out in columns of
// widths; byteWide tells that every cell is as wide as it is long in
// bytes (ASCII: no rune to count).
func appendColumns(b []byte, rows [][]string, widths []int, padding int, byteWide bool) []byte {
	line := padding // a line's length: the widths, padded, and the last cell
	for _, w := range widths {
		line += w + padding
	}
	size := 0
	for _, row := range rows {
		size += line + len(row[len(row)-1]) // more for cells of runes wider than a byte
	}
	b = slices.Grow(b, size)
	for _, row := range rows {
		last := len(row) - 1
		for i, c := range row[:last] {
			b = append(b, c...)
			w := len(c)
			if !byteWide {
				w, _ = cellWidth(c)
			}
			b = append(b, spaces(widths[i]+padding-w)...)
		}
		b = append(b, row[last]...)
		b = append(b, '\n')
	}
	return b
}

// columnWidths returns the widest cell of each column but the last, in
// runes, and whether every cell is as wide as it is long in bytes; ok
// false when the rows cannot be laid out by hand (writeColumns).
func columnWidths(rows [][]string) (widths []int, byteWide, ok bool) {
	if len(rows) == 0 || len(rows[0]) == 0 {
		return nil, false, false
	}
	n := len(rows[0]) - 1
	each := make([]partWidth, par.Parts(len(rows), rowsPerPart))
	par.Do(len(rows), rowsPerPart, func(part, from, to int) {
		each[part] = partWidths(rows[from:to], n)
	})
	widths, byteWide = make([]int, n), true
	for _, p := range each {
		if !p.plain {
			return nil, false, false
		}
		for i, w := range p.widths {
			widths[i] = max(widths[i], w)
		}
		byteWide = byteWide && p.byteWide
	}
	return widths, byteWide, true
}

// partWidth is what partWidths finds of some of the rows.
type partWidth struct {
	widths          []int
	plain, byteWide bool
}

// partWidths is columnWidths of some of the rows, of n columns but the
// last each.
func partWidths(rows [][]string, n int) partWidth {
	p := partWidth{widths: make([]int, n), plain: true, byteWide: true}
	for _, row := range rows {
		if len(row) != n+1 {
			return partWidth{}
		}
		for i, c := range row {
			w, plain := cellWidth(c)
			if !plain {
				return partWidth{}
			}
			p.byteWide = p.byteWide && w == len(c)
			if i < n {
				p.widths[i] = max(p.widths[i], w)
			}
		}
	}
	return p
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

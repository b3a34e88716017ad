// Package sgr reads the text of a terminal screen with its SGR escapes,
// as tmux capture-pane -e prints a pane, into runs of text of one style;
// every other escape is dropped, and a style is only ever numbers and
// flags, never text of the screen.
package sgr

import (
	"encoding/json"
	"strconv"
	"strings"
)

// Color is a colour of a run: the terminal's default (the zero Color),
// one of the 16 colours of its palette (0–7, and 8–15 the bright ones),
// or red, green and blue, for the colours of the 256-colour palette past
// the first 16 and for true colour.
type Color struct {
	kind    uint8 // 0 default, 1 palette, 2 rgb
	r, g, b uint8 // the palette index in r
}

// Palette is colour i (0–15) of the terminal's palette.
func Palette(i uint8) Color { return Color{kind: 1, r: i & 15} }

// RGB is a colour by its red, green and blue.
func RGB(r, g, b uint8) Color { return Color{kind: 2, r: r, g: g, b: b} }

// MarshalJSON writes a palette colour as its index and any other as
// [red, green, blue]: numbers alone.
func (c Color) MarshalJSON() ([]byte, error) {
	switch c.kind {
	case 1:
		return json.Marshal(c.r)
	case 2:
		return json.Marshal([3]uint8{c.r, c.g, c.b})
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *Color) UnmarshalJSON(data []byte) error {
	var i *uint8
	if err := json.Unmarshal(data, &i); err == nil {
		*c = Color{}
		if i != nil {
			*c = Palette(*i)
		}
		return nil
	}
	var rgb [3]uint8
	if err := json.Unmarshal(data, &rgb); err != nil {
		return err
	}
	*c = RGB(rgb[0], rgb[1], rgb[2])
	return nil
}

// Style is how a run of text shows. Inverse swaps its colours, the
// default ones too.
type Style struct {
	Fg        Color `json:"fg,omitzero"`
	Bg        Color `json:"bg,omitzero"`
	Bold      bool  `json:"bold,omitempty"`
	Dim       bool  `json:"dim,omitempty"`
	Italic    bool  `json:"italic,omitempty"`
	Underline bool  `json:"underline,omitempty"`
	Inverse   bool  `json:"inverse,omitempty"`
	Strike    bool  `json:"strike,omitempty"`
}

// Run is text of one style. Its text is the screen's, escapes taken
// out: other control characters are left for the caller to make
// printable.
type Run struct {
	Text string `json:"text"`
	Style
}

// Parse reads the lines of one screen into runs, line by line; a style
// carries from one line to the next, as tmux writes it. Runs of the same
// style are merged, and a line without text has no runs.
func Parse(lines []string) [][]Run {
	var st Style
	out := make([][]Run, len(lines))
	for i, line := range lines {
		out[i], st = parseLine(line, st)
	}
	return out
}

// parseLine reads one line in style st and returns its runs and the style
// at its end. Text goes on in the run it is in until its style changes:
// an SGR that changes nothing shown (blink, overline; tmux writes one
// before every cell when they alternate) starts no run, and text is
// never copied again for each of them.
func parseLine(line string, st Style) ([]Run, Style) {
	var runs []Run
	var text strings.Builder
	var textStyle Style // the style of text, when it holds any
	flush := func() {
		if text.Len() > 0 {
			runs = append(runs, Run{Text: text.String(), Style: textStyle})
			text.Reset()
		}
	}
	for i := 0; i < len(line); {
		if line[i] != 0x1b {
			j := strings.IndexByte(line[i:], 0x1b)
			if j < 0 {
				j = len(line) - i
			}
			if textStyle != st {
				flush()
			}
			textStyle = st
			text.WriteString(line[i : i+j])
			i += j
			continue
		}
		params, next, ok := escape(line, i)
		i = next
		if ok {
			st = apply(st, params)
		}
	}
	flush()
	return runs, st
}

// escape reads the escape sequence at line[i] (an ESC) and returns where
// it ends; ok tells that it is an SGR, CSI params m, whose params are
// returned. A sequence cut short by the end of the line ends there.
func escape(line string, i int) (params string, next int, ok bool) {
	i++ // ESC
	if i >= len(line) {
		return "", i, false
	}
	switch c := line[i]; {
	case c == '[':
		return csi(line, i+1)
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		// OSC (a title, an OSC 8 link), DCS, SOS, PM, APC: a string that
		// ends with ST (ESC \) or, for OSC, BEL.
		for j := i + 1; j < len(line); j++ {
			if line[j] == 0x07 {
				return "", j + 1, false
			}
			if line[j] == 0x1b && j+1 < len(line) && line[j+1] == '\\' {
				return "", j + 2, false
			}
		}
		return "", len(line), false
	}
	// ESC, intermediates, a final byte.
	for i < len(line) && line[i] >= 0x20 && line[i] <= 0x2f {
		i++
	}
	if i < len(line) && line[i] >= 0x30 && line[i] <= 0x7e {
		i++
	}
	return "", i, false
}

// csi reads a control sequence after its ESC [: parameter bytes,
// intermediate bytes, a final byte. It is an SGR when its final byte is m,
// without intermediates, and its parameters are digits, ; and : alone.
func csi(line string, i int) (params string, next int, ok bool) {
	start := i
	for i < len(line) && line[i] >= 0x30 && line[i] <= 0x3f {
		i++
	}
	params = line[start:i]
	inter := i
	for i < len(line) && line[i] >= 0x20 && line[i] <= 0x2f {
		i++
	}
	if i >= len(line) || line[i] < 0x40 || line[i] > 0x7e {
		return "", i, false // cut short, or not a control sequence: dropped
	}
	final := line[i]
	plain := strings.Trim(params, "0123456789;:") == ""
	return params, i + 1, final == 'm' && inter == i && plain
}

// apply applies the parameters of an SGR to st.
func apply(st Style, params string) Style {
	ps := strings.Split(params, ";")
	for k := 0; k < len(ps); k++ {
		sub := strings.Split(ps[k], ":")
		n, ok := number(sub[0])
		if !ok {
			continue
		}
		switch {
		case n == 38 || n == 48 || n == 58:
			var c Color
			var used int
			if len(sub) > 1 {
				c, ok = extended(sub[1:], true)
			} else {
				c, used, ok = extendedSemicolons(ps[k+1:])
				k += used
			}
			if ok && n == 38 {
				st.Fg = c
			} else if ok && n == 48 {
				st.Bg = c
			} // 58, the underline's colour, is not shown
		case len(sub) > 1 && n == 4:
			u, _ := number(sub[1])
			st.Underline = u != 0
		default:
			st = attribute(st, n)
		}
	}
	return st
}

// attribute applies one SGR parameter that stands alone.
func attribute(st Style, n int) Style {
	if c, ok := basic(n, 30); ok {
		st.Fg = c
		return st
	}
	if c, ok := basic(n, 40); ok {
		st.Bg = c
		return st
	}
	switch n {
	case 0:
		st = Style{}
	case 1:
		st.Bold = true
	case 2:
		st.Dim = true
	case 3:
		st.Italic = true
	case 4, 21:
		st.Underline = true
	case 7:
		st.Inverse = true
	case 9:
		st.Strike = true
	case 22:
		st.Bold, st.Dim = false, false
	case 23:
		st.Italic = false
	case 24:
		st.Underline = false
	case 27:
		st.Inverse = false
	case 29:
		st.Strike = false
	}
	return st // blink, conceal, overline, fonts…: not shown
}

// basic reads a colour of the palette from n, a parameter of the
// foreground (base 30: 30–37, the bright 90–97, 39 the default) or of
// the background (base 40); ok is false for any other.
func basic(n, base int) (c Color, ok bool) {
	switch {
	case n >= base && n <= base+7:
		return Palette(uint8(n - base)), true
	case n >= base+60 && n <= base+67:
		return Palette(uint8(n - base - 60 + 8)), true
	}
	return Color{}, n == base+9
}

// extendedSemicolons reads the colour of a 38, 48 or 58 written with
// semicolons, 5;N or 2;R;G;B, from the parameters after it, and says how
// many of them it took.
func extendedSemicolons(ps []string) (Color, int, bool) {
	if len(ps) == 0 {
		return Color{}, 0, false
	}
	switch ps[0] {
	case "5":
		c, ok := extended(ps[:min(2, len(ps))], false)
		return c, min(2, len(ps)), ok
	case "2":
		c, ok := extended(ps[:min(4, len(ps))], false)
		return c, min(4, len(ps)), ok
	}
	return Color{}, 1, false
}

// extended reads 5, N (an index of the 256-colour palette) or 2, R, G, B;
// written with colons, 2 may have a colour space before R, G and B.
func extended(ps []string, colons bool) (Color, bool) {
	nums := make([]int, 0, len(ps))
	for _, p := range ps {
		n, ok := number(p) // an empty one, as a colour space left out, is 0
		if !ok || n > 255 {
			return Color{}, false
		}
		nums = append(nums, n)
	}
	switch {
	case len(nums) == 2 && nums[0] == 5:
		return indexed(uint8(nums[1])), true
	case len(nums) == 4 && nums[0] == 2:
		return RGB(uint8(nums[1]), uint8(nums[2]), uint8(nums[3])), true
	case len(nums) == 5 && nums[0] == 2 && colons:
		return RGB(uint8(nums[2]), uint8(nums[3]), uint8(nums[4])), true
	}
	return Color{}, false
}

// indexed is colour i of the 256-colour palette: the 16 of the terminal's
// own palette, then a 6×6×6 cube and 24 greys, as xterm has them.
func indexed(i uint8) Color {
	switch {
	case i < 16:
		return Palette(i)
	case i < 232:
		level := func(v uint8) uint8 {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		i -= 16
		return RGB(level(i/36), level(i/6%6), level(i%6))
	}
	g := 8 + 10*(i-232)
	return RGB(g, g, g)
}

// number reads a parameter of digits alone; an empty one is 0.
func number(s string) (int, bool) {
	if s == "" {
		return 0, true
	}
	if len(s) > 3 {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

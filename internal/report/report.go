// Package report writes the lines people read, as opposed to the output
// scripts parse: progress ([INFO]), results ([SUCCESS]), warnings, hints and
// debug traces. Whether a stream gets colour is decided once, when its
// Reporter is made; everything that talks to people is handed a Reporter
// instead of an io.Writer, so no other package spells a tag or an escape.
package report

import (
	"fmt"
	"io"
	"sync"
)

// A Reporter writes tagged lines to one stream. The zero of *Reporter (nil)
// writes nothing, so a caller without anyone to tell can pass nil.
// It is safe for concurrent use: each line is written whole.
type Reporter struct {
	mu    sync.Mutex
	w     io.Writer
	color bool
	debug bool
}

// New returns a Reporter writing to w, in colour when color is set, with
// Debugf lines only when debug is set.
func New(w io.Writer, color, debug bool) *Reporter {
	return &Reporter{w: w, color: color, debug: debug}
}

// Color tells whether a stream gets ANSI colours: only a terminal, and never
// with NO_COLOR set (https://no-color.org) or TERM=dumb.
func Color(tty bool, getenv func(string) string) bool {
	return tty && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// The tags, with the colours the original tool gave them.
const (
	blue   = "\033[1;34m"
	green  = "\033[1;32m"
	yellow = "\033[1;33m"
	reset  = "\033[0m"
)

// Infof writes "[INFO] <message>": what is happening.
func (r *Reporter) Infof(format string, args ...any) { r.tagged(blue, "[INFO]", format, args) }

// Successf writes "[SUCCESS] <message>": a result that is entirely what was
// asked for. A partial result is not a success; say it with Partialf.
func (r *Reporter) Successf(format string, args ...any) {
	r.tagged(green, "[SUCCESS]", format, args)
}

// Existsf writes "[WARNING] <message>", the original tool's tag for a
// command that finds its work already done; mas's own warnings use Warnf.
func (r *Reporter) Existsf(format string, args ...any) {
	r.tagged(yellow, "[WARNING]", format, args)
}

// Partialf writes "[WARNING] <message>", in the original tool's tag and
// colour: a result that is only part of what was asked for (a message
// sent to 3 of 4 agents, or to none), where a script of the original
// looked for its words; the error that follows says why.
func (r *Reporter) Partialf(format string, args ...any) {
	r.tagged(yellow, "[WARNING]", format, args)
}

// Warnf writes "mas: warning: <message>": something went wrong that the
// command could carry on without.
func (r *Reporter) Warnf(format string, args ...any) { r.prefixed("mas: warning: ", format, args) }

// Hintf writes "mas: hint: <message>": the next command a person may want.
func (r *Reporter) Hintf(format string, args ...any) { r.prefixed("mas: hint: ", format, args) }

// Debugf writes "mas: debug: <message>" when the Reporter was made for
// debugging (MAS_DEBUG=1), and nothing otherwise.
func (r *Reporter) Debugf(format string, args ...any) {
	if r != nil && r.debug {
		r.prefixed("mas: debug: ", format, args)
	}
}

// Debugging tells whether Debugf writes anything, for callers that would
// spend work on building a trace.
func (r *Reporter) Debugging() bool { return r != nil && r.debug }

// Writer is the stream itself, for what another program writes there (a
// notify command's output); io.Discard for a nil Reporter.
func (r *Reporter) Writer() io.Writer {
	if r == nil {
		return io.Discard
	}
	return r.w
}

func (r *Reporter) tagged(color, tag, format string, args []any) {
	if r == nil {
		return
	}
	if r.color {
		tag = color + tag + reset
	}
	r.line(tag+" ", format, args)
}

func (r *Reporter) prefixed(prefix, format string, args []any) {
	if r == nil {
		return
	}
	r.line(prefix, format, args)
}

func (r *Reporter) line(prefix, format string, args []any) {
	s := prefix + fmt.Sprintf(format, args...) + "\n"
	r.mu.Lock()
	defer r.mu.Unlock()
	io.WriteString(r.w, s)
}

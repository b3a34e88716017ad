package main

import (
	"io"
	"strings"
	"sync"
)

// A screen writes to a terminal in raw mode, where a line feed does not
// return the cursor: every "\n" is written as "\r\n". It remembers
// whether the cursor is after some text, so that a message starts on a
// line of its own.
type screen struct {
	mu      sync.Mutex
	w       io.Writer
	midLine bool
}

// println shows s on lines of its own.
func (sc *screen) println(s string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.newline()
	sc.write(s + "\n")
	sc.midLine = false
}

// prompt shows the prompt on a line of its own, followed by line.
func (sc *screen) prompt(line string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.newline()
	sc.write("> " + line)
	sc.midLine = true
}

// echo shows s where the cursor is.
func (sc *screen) echo(s string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.write(s)
	sc.midLine = !strings.HasSuffix(s, "\n")
}

// raw writes s as it is.
func (sc *screen) raw(s string) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	io.WriteString(sc.w, s)
}

func (sc *screen) newline() {
	if sc.midLine {
		sc.write("\n")
		sc.midLine = false
	}
}

func (sc *screen) write(s string) {
	io.WriteString(sc.w, strings.ReplaceAll(s, "\n", "\r\n"))
}

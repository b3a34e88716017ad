// Package envfile reads and writes .session files: one KEY=value line per
// variable, shell-quoted only where needed, that shells can source and that
// this package reads without ever executing them.
//
// Reading follows bash: a file is read to the values bash would give when
// it sources it, or refused when bash would expand or run anything.
// go-envparse is no judge of what is read; it only cross-checks what Encode
// writes, so that mas's own files also read right in dotenv tools.
package envfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/go-envparse"
	"mvdan.cc/sh/v3/syntax"

	"mas/internal/safefile"
)

// Limits on what the package writes and reads.
const (
	MaxValueLen = 4096     // bytes of one value: a path fits
	MaxFileSize = 64 << 10 // bytes of one file
)

// ErrWritable is a file that its group or others may write: Read refuses
// it, as anyone of them could have put any value in.
var ErrWritable = errors.New("writable by group or others")

// Var is one variable of a file.
type Var struct {
	Key, Value string
}

// Encode renders vars as file content, in the given order. Values are
// quoted only when the shell would otherwise read them differently, so a
// plain path is written as it is. Keys must be allowed and unique; values
// must be printable UTF-8 without control characters, at most MaxValueLen
// bytes. The result is checked by reading it back with Parse and with
// go-envparse.
func Encode(vars []Var, allowed []string) ([]byte, error) {
	var b bytes.Buffer
	seen := map[string]bool{}
	for _, v := range vars {
		if err := checkKey(v.Key, allowed); err != nil {
			return nil, err
		}
		if seen[v.Key] {
			return nil, fmt.Errorf("key %s given twice", v.Key)
		}
		seen[v.Key] = true
		q, err := quote(v.Value)
		if err != nil {
			return nil, fmt.Errorf("value of %s: %w", v.Key, err)
		}
		fmt.Fprintf(&b, "%s=%s\n", v.Key, q)
	}
	back, err := Parse("encoded", b.Bytes(), allowed)
	if err != nil {
		return nil, fmt.Errorf("encoded file does not read back: %w", err)
	}
	for i, v := range back {
		if v != vars[i] {
			return nil, fmt.Errorf("value of %s does not read back unchanged", v.Key)
		}
	}
	if err := crossCheck("encoded", b.Bytes(), back); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// quote returns v as a shell word that bash, dash, zsh, mvdan/sh and
// go-envparse all read as v.
func quote(v string) (string, error) {
	if err := checkValue(v); err != nil {
		return "", err
	}
	q, err := syntax.Quote(v, syntax.LangBash)
	if err != nil {
		return "", err
	}
	// Quote writes "…\$…" for a value holding both ' and $, ` or \, which
	// go-envparse misreads; single quotes around each run, with the quote
	// itself as "'", read the same everywhere.
	if strings.HasPrefix(q, `"`) && strings.ContainsAny(v, "$`\\\"") {
		q = "'" + strings.ReplaceAll(v, "'", `'"'"'`) + "'"
	}
	return q, nil
}

func checkKey(key string, allowed []string) error {
	for _, k := range allowed {
		if k == key {
			return nil
		}
	}
	return fmt.Errorf("key %q is not allowed", key)
}

// checkValue refuses what cannot be written as one safe, portable line.
func checkValue(v string) error {
	if len(v) > MaxValueLen {
		return fmt.Errorf("longer than %d bytes", MaxValueLen)
	}
	if !utf8.ValidString(v) {
		return errors.New("not valid UTF-8")
	}
	for _, r := range v {
		switch {
		case r == 0:
			return errors.New("contains a NUL byte")
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			return fmt.Errorf("contains the control character %U", r)
		case r == 0xa0 || r == utf8.RuneError:
			return fmt.Errorf("contains %U", r)
		}
	}
	// POSIX shells have no way to write what Quote cannot quote for them.
	if _, err := syntax.Quote(v, syntax.LangPOSIX); err != nil {
		return err
	}
	return nil
}

// Write replaces the file at path with vars, atomically: the content goes
// to a 0600 temporary file in the same directory and is renamed over path.
// A reader sees the old file or the new one, never a mix.
func Write(path string, vars []Var, allowed []string) error {
	data, err := Encode(vars, allowed)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return safefile.WriteAtomic(path, data, 0o600)
}

// Read reads the file at path with Parse. It never blocks and never
// follows a link: it refuses a symbolic link at the end of path, a FIFO, a
// device or anything else that is not a regular file, a file that its
// group or others may write, and a file over MaxFileSize.
func Read(path string, allowed []string) ([]Var, error) {
	f, err := safefile.Open(path, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return nil, fmt.Errorf("%s: %w (mode %04o)", path, ErrWritable, fi.Mode().Perm())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > MaxFileSize {
		return nil, &safefile.Error{Path: path, Err: safefile.ErrTooLarge, Info: fmt.Sprintf("more than %d bytes", MaxFileSize)}
	}
	return Parse(path, data, allowed)
}

// Map returns vars as a map.
func Map(vars []Var) map[string]string {
	m := make(map[string]string, len(vars))
	for _, v := range vars {
		m[v.Key] = v.Value
	}
	return m
}

// crossCheck reads data with go-envparse, which must agree with vars. It
// checks only what Encode writes, never what Parse reads: see Parse.
func crossCheck(name string, data []byte, vars []Var) error {
	other, err := envparse.Parse(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%s: go-envparse cannot read it: %v", name, err)
	}
	if !maps.Equal(other, Map(vars)) {
		return fmt.Errorf("%s: read differently by go-envparse", name)
	}
	return nil
}

// Environ returns vars as KEY=value strings, for a process environment.
func Environ(vars []Var) []string {
	out := make([]string, 0, len(vars))
	for _, v := range vars {
		out = append(out, v.Key+"="+v.Value)
	}
	return out
}

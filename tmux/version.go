package tmux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"mas/internal/safefile"
)

// ErrTooOld is returned by CheckVersion for a tmux older than 3.2.
var ErrTooOld = errors.New("tmux 3.2 or newer required")

// Version is a tmux release number; development builds ("master",
// "next-3.8") count as newer than any release.
type Version struct {
	Major, Minor int
	Raw          string // as tmux -V printed it, without the "tmux " prefix
}

func (v Version) atLeast(major, minor int) bool {
	return v.Major > major || v.Major == major && v.Minor >= minor
}

// ParseVersion reads the output of "tmux -V": "tmux 3.3a", "tmux 3.7",
// "tmux next-3.8", "tmux master", "tmux openbsd-7.5".
func ParseVersion(out string) (Version, error) {
	raw := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(out), "tmux "))
	v := Version{Raw: raw}
	switch {
	case raw == "master":
		v.Major = 1 << 20
		return v, nil
	case strings.HasPrefix(raw, "next-"):
		raw = strings.TrimPrefix(raw, "next-")
	case strings.HasPrefix(raw, "openbsd-"):
		// OpenBSD's base tmux follows the OS release; every supported one is new enough.
		v.Major = 1 << 20
		return v, nil
	}
	major, rest, ok := strings.Cut(raw, ".")
	var err error
	if v.Major, err = strconv.Atoi(major); err != nil || !ok {
		return Version{}, fmt.Errorf("cannot read tmux version from %q", strings.TrimSpace(out))
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if v.Minor, err = strconv.Atoi(rest[:n]); err != nil {
		return Version{}, fmt.Errorf("cannot read tmux version from %q", strings.TrimSpace(out))
	}
	return v, nil
}

// CheckVersion asks tmux for its version and fails with ErrNotFound or
// ErrTooOld when it cannot be used.
func CheckVersion(ctx context.Context, c Client) (Version, error) {
	out, err := c.Run(ctx, nil, "-V")
	if err != nil {
		return Version{}, err
	}
	v, err := ParseVersion(string(out))
	if err != nil {
		return Version{}, err
	}
	if !v.atLeast(3, 2) {
		return v, fmt.Errorf("%w (found %s)", ErrTooOld, v.Raw)
	}
	return v, nil
}

// CheckVersionCached is CheckVersion that remembers, in the file cache, a
// version that passed for the tmux binary c runs, by its path, device,
// inode, size and modification time: while the binary is that same file,
// the check starts no tmux process (issue 28). The version is remembered
// when the caller calls remember, once what it checked for has been done
// (a start that fails or is refused changes no file); a version too old
// is never remembered: it is refused each time, before anything is
// written. The cache is read as a file a user can edit is (no link,
// regular, capped) and replaced atomically; a cache that cannot be read
// or written only costs the tmux -V it saves. cache "" is none; a Client
// that is not a *Runner runs tmux -V each time.
func CheckVersionCached(ctx context.Context, c Client, cache string) (v Version, remember func(), err error) {
	remember = func() {}
	key := binaryKey(c)
	if key == "" || cache == "" {
		v, err = CheckVersion(ctx, c)
		return v, remember, err
	}
	if data, err := safefile.ReadFile(cache, 4096); err == nil {
		k, raw, ok := strings.Cut(strings.TrimSuffix(string(data), "\n"), "\t")
		if v, err := ParseVersion(raw); ok && k == key && err == nil && v.atLeast(3, 2) {
			return v, remember, nil
		}
	}
	v, err = CheckVersion(ctx, c)
	if err == nil {
		remember = func() {
			safefile.WriteAtomic(cache, []byte(key+"\t"+v.Raw+"\n"), 0o600) // best effort: see above
		}
	}
	return v, remember, err
}

// binaryKey names the file of the tmux binary that c runs, as
// CheckVersionCached remembers it; "" when it cannot say.
func binaryKey(c Client) string {
	r, ok := c.(*Runner)
	if !ok {
		return ""
	}
	// exec.Command finds the binary on this process's PATH, whatever
	// Runner.Env holds.
	path, err := exec.LookPath(r.argv(nil)[0])
	if err != nil {
		return ""
	}
	if path, err = filepath.Abs(path); err != nil {
		return ""
	}
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	var dev, ino uint64
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		dev, ino = uint64(st.Dev), st.Ino
	}
	return fmt.Sprintf("%q %d %d %d %d", path, dev, ino, fi.Size(), fi.ModTime().UnixNano())
}

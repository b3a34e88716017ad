package tmux

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
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

package activity

import (
	"context"
	"os"
	"time"
)

// Watch calls changed (from one goroutine, never two at once) soon after
// a file in one of dirs is made, replaced or removed, until ctx is done:
// on Linux the kernel tells (inotify) and nothing is read while nothing
// changes; elsewhere, or when the kernel refuses, the directories are
// listed every pollEvery. Changes that come while changed runs are told
// once it returns. dirs that do not exist yet are watched from when they
// do, as well as the kernel allows: a directory made later is polled.
func Watch(ctx context.Context, dirs []string, changed func()) {
	if watchKernel(ctx, dirs, changed) {
		return
	}
	poll(ctx, dirs, changed)
}

// pollEvery is how often poll lists the directories.
const pollEvery = 250 * time.Millisecond

// poll calls changed when what the directories hold (names, sizes, times)
// differs from the last look.
func poll(ctx context.Context, dirs []string, changed func()) {
	last := signature(dirs)
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if now := signature(dirs); now != last {
			last = now
			changed()
		}
	}
}

// signature sums up the entries of dirs.
func signature(dirs []string) string {
	var b []byte
	for _, d := range dirs {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			b = append(b, e.Name()...)
			if fi, err := e.Info(); err == nil {
				b = fi.ModTime().AppendFormat(b, time.RFC3339Nano)
				b = append(b, byte(fi.Size()), byte(fi.Size()>>8))
			}
			b = append(b, 0)
		}
		b = append(b, '/')
	}
	return string(b)
}

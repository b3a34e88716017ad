package activity

import (
	"context"
	"os"
	"syscall"
)

// watchKernel watches dirs with inotify until ctx is done; false when the
// kernel cannot watch one of them (it does not exist yet, or inotify is
// out of watches), for poll to do it.
func watchKernel(ctx context.Context, dirs []string, changed func()) bool {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return false
	}
	// Non-blocking, the descriptor goes to Go's poller: a Read waits
	// without a thread, and Close ends it.
	f := os.NewFile(uintptr(fd), "inotify")
	const mask = syscall.IN_CLOSE_WRITE | syscall.IN_MOVED_TO | syscall.IN_MOVED_FROM | syscall.IN_CREATE |
		syscall.IN_DELETE | syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF
	for _, d := range dirs {
		if _, err := syscall.InotifyAddWatch(fd, d, mask); err != nil {
			f.Close()
			return false
		}
	}
	events := make(chan struct{}, 1)
	go func() {
		buf := make([]byte, 64<<10)
		for {
			if _, err := f.Read(buf); err != nil {
				close(events)
				return
			}
			select {
			case events <- struct{}{}:
			default: // one is pending: it covers this one
			}
		}
	}()
	defer f.Close()
	for {
		select {
		case <-ctx.Done():
			return true
		case _, ok := <-events:
			if !ok {
				return true
			}
			changed()
		}
	}
}

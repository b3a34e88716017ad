//go:build linux

package main

import (
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// inheritedPipe is a pipe whose descriptors a child would inherit, as a
// test runner's FD 3 is.
func inheritedPipe(t *testing.T) [2]int {
	t.Helper()
	var p [2]int
	if err := syscall.Pipe2(p[:], 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Close(p[0]); syscall.Close(p[1]) })
	for _, fd := range p {
		if closeOnExec(t, fd) {
			t.Fatalf("descriptor %d starts close-on-exec", fd)
		}
	}
	return p
}

func closeOnExec(t *testing.T, fd int) bool {
	t.Helper()
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
	if err != nil {
		t.Fatal(err)
	}
	return flags&unix.FD_CLOEXEC != 0
}

// No descriptor above stderr is left for a tmux server this process
// starts; stdin, stdout and stderr are.
func TestInheritedFilesAreMarkedCloseOnExec(t *testing.T) {
	p := inheritedPipe(t)
	closeInheritedFiles()
	for _, fd := range p {
		if !closeOnExec(t, fd) {
			t.Errorf("descriptor %d is not close-on-exec", fd)
		}
	}
	for fd := range 3 {
		if closeOnExec(t, fd) {
			t.Errorf("descriptor %d became close-on-exec", fd)
		}
	}
}

//go:build linux

package main

import (
	"testing"

	"golang.org/x/sys/unix"
)

func closeOnExec(t *testing.T, fd int) bool {
	t.Helper()
	flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
	if err != nil {
		t.Fatal(err)
	}
	return flags&unix.FD_CLOEXEC != 0
}

// No descriptor above stderr is left for a tmux server this process
// starts (a test runner's FD 3, a $(…) capture); stdin, stdout and stderr
// are. closeInheritedFiles marks every descriptor of this test binary too,
// which needs none of them across an exec.
func TestInheritedFilesAreMarkedCloseOnExec(t *testing.T) {
	var p [2]int
	if err := unix.Pipe2(p[:], 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { unix.Close(p[0]); unix.Close(p[1]) })
	for _, fd := range []int{p[0], p[1], 0, 1, 2} {
		if closeOnExec(t, fd) {
			t.Fatalf("descriptor %d starts close-on-exec", fd)
		}
	}
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

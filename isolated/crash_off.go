//go:build !crashtest

package isolated

// crashPoint marks a step of Create, Resume or Remove at which the crash
// tests kill the process; release builds do nothing here.
func crashPoint(string) {}

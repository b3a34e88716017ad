package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
)

// BenchmarkBackendSessions measures GET /sessions of 1,000 stopped sessions
// as the server answers it once its cache holds them: what the web page's
// refresh costs the server.
func BenchmarkBackendSessions(b *testing.B) {
	a, _, _, _ := testApp(b, nil)
	dir := filepath.Join(a.Root(), "sessions")
	old := time.Now().Add(-time.Hour)
	for range 1000 {
		id := uuid.NewString()
		d := filepath.Join(dir, id)
		if err := os.MkdirAll(d, 0o700); err != nil {
			b.Fatal(err)
		}
		body := fmt.Sprintf("SESSION_ID=%s\nTMUX_SESSION=mas-%s\nSTATUS=stopped\nCREATED_AT=2026-01-01T00:00:00Z\nUNIT_DIR=%s/unit\nWORKFLOWS_DIR=%s/workflows\nSESSION_DIR=%s\n",
			id, id[:8], d, d, d)
		if err := os.WriteFile(filepath.Join(d, ".session"), []byte(body), 0o600); err != nil {
			b.Fatal(err)
		}
		os.Chtimes(filepath.Join(d, ".session"), old, old) // stopped an hour ago
	}
	back := NewBackend(a)
	ctx := context.Background()
	back.Sessions(ctx)                  // makes the cache's directory
	time.Sleep(2500 * time.Millisecond) // the files' changes settle (the cache's racy window)
	for range 2 {
		if _, err := back.Sessions(ctx); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		back.Sessions(ctx)
	}
}

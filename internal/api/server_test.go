package api

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// serveTest serves b on a real listener within lim until the test ends,
// and returns the address. Requests are logged, as mas serve logs them.
func serveTest(t *testing.T, b Backend, lim Limits) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, ln, New(b, Options{Addr: ln.Addr().String(), Requests: io.Discard}), lim) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// closedWithin reads c until the server closes it, and fails the test
// if that takes longer than d.
func closedWithin(t *testing.T, c net.Conn, d time.Duration) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	if err != nil {
		t.Fatalf("connection still open after %v: %v", d, err)
	}
}

func TestSlowHeadersAreCut(t *testing.T) {
	lim := DefaultLimits()
	lim.ReadHeaderTimeout = 200 * time.Millisecond
	a := serveTest(t, &fake{}, lim)
	c, err := net.Dial("tcp", a)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	fmt.Fprintf(c, "GET /health HTTP/1.1\r\nHost: %s\r\n", a) // and never the blank line
	closedWithin(t, c, 2*time.Second)
	t.Logf("cut after %v", time.Since(start).Round(time.Millisecond))
}

func TestSlowBodyIsCut(t *testing.T) {
	lim := DefaultLimits()
	lim.ReadHeaderTimeout, lim.ReadTimeout = 200*time.Millisecond, 300*time.Millisecond
	f := &fake{}
	a := serveTest(t, f, lim)
	c, err := net.Dial("tcp", a)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	body := `{"target": "00", "message": "hi"}`
	fmt.Fprintf(c, "POST /message HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", a, len(body))
	// One byte every 50 ms: the whole body would take 1.7 s.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for i := range len(body) {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := c.Write([]byte{body[i]}); err != nil {
				return
			}
		}
	}()
	closedWithin(t, c, time.Second)
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.messages) != 0 {
		t.Errorf("a cut body still reached the backend: %v", f.messages)
	}
}

func TestHeadersAreCapped(t *testing.T) {
	lim := DefaultLimits()
	lim.MaxHeaderBytes = 4 << 10
	a := serveTest(t, &fake{}, lim)
	req, _ := http.NewRequest("GET", "http://"+a+"/health", nil)
	req.Header.Set("X-Big", strings.Repeat("x", 16<<10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("status %d, want 431", resp.StatusCode)
	}
}

// TestRunOutlivesTheTimeouts: POST /runs waits for agents longer than the
// read and write timeouts; its context must not be cancelled nor its
// answer cut.
func TestRunOutlivesTheTimeouts(t *testing.T) {
	lim := DefaultLimits()
	lim.ReadTimeout, lim.WriteTimeout = 200*time.Millisecond, 200*time.Millisecond
	f := &fake{delay: 800 * time.Millisecond}
	a := serveTest(t, f, lim)
	resp, err := http.Post("http://"+a+"/runs", "application/json", strings.NewReader(`{"agents": {}, "sessionMode": "isolated"}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("status %d: %s", resp.StatusCode, body)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.runCtx != nil {
		t.Errorf("the run's context ended early: %v", f.runCtx)
	}
	if !strings.Contains(string(body), "mas-3f0c2a9e") {
		t.Errorf("body %s", body)
	}
}

func TestConnectionsAreCapped(t *testing.T) {
	lim := DefaultLimits()
	lim.MaxConns = 2
	a := serveTest(t, &fake{}, lim)
	var idle []net.Conn
	for range 2 {
		c, err := net.Dial("tcp", a)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		idle = append(idle, c)
	}
	// A third client waits: connected by the kernel, not served.
	c, err := net.Dial("tcp", a)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "GET /health HTTP/1.1\r\nHost: %s\r\n\r\n", a)
	c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	r := bufio.NewReader(c)
	if line, err := r.ReadString('\n'); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a third connection was served: %q, %v", line, err)
	}
	// One closes: the third is served.
	idle[0].Close()
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	if line, err := r.ReadString('\n'); err != nil || line != "HTTP/1.1 200 OK\r\n" {
		t.Fatalf("after a slot freed: %q, %v", line, err)
	}
}

// TestIdleConnectionsCostNoDescriptors: a flood of idle connections holds
// at most MaxConns descriptors of the server (the rest wait in the
// kernel's queue), where it used to hold one each until the fds ran out.
func TestIdleConnectionsCostNoDescriptors(t *testing.T) {
	const flood, max = 300, 8
	lim := DefaultLimits()
	lim.MaxConns = max
	a := serveTest(t, &fake{}, lim)
	before := openFDs(t)
	for range flood {
		c, err := net.DialTimeout("tcp", a, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	time.Sleep(100 * time.Millisecond) // let the server accept what it will
	// This process holds the clients' descriptors too: flood of them.
	if got := openFDs(t) - before; got > flood+max+4 {
		t.Errorf("%d idle connections opened %d descriptors: the server holds %d, cap %d", flood, got, got-flood, max)
	}
}

func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(ents)
}

// A run lifts its timeouts only once its whole body is in: a body that
// declares more than its JSON value and trickles the rest is still cut.
func TestRunWithATricklingTailIsCut(t *testing.T) {
	lim := DefaultLimits()
	lim.ReadHeaderTimeout, lim.ReadTimeout = 200*time.Millisecond, 300*time.Millisecond
	f := &fake{}
	a := serveTest(t, f, lim)
	c, err := net.Dial("tcp", a)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	body := `{"agents": {}, "sessionMode": "isolated"}`
	fmt.Fprintf(c, "POST /runs HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", a, len(body)+100, body)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for range 100 {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := c.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	closedWithin(t, c, time.Second)
}

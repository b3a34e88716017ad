package cli

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"mas/internal/remote"
)

// TestEachHostAsksAFewAtOnce: session list, host list and --host auto
// start at most remote.MaxAsked ssh calls at a time, however many hosts
// hosts.json lists, and ask every one.
func TestEachHostAsksAFewAtOnce(t *testing.T) {
	var hosts []remote.Host
	for i := range 3 * remote.MaxAsked {
		hosts = append(hosts, remote.Host{Name: fmt.Sprintf("h%d", i)})
	}
	var mu sync.Mutex
	running, most := 0, 0
	asked := make([]bool, len(hosts))
	err := eachHost(context.Background(), hosts, func(i int, h remote.Host) {
		mu.Lock()
		running++
		most = max(most, running)
		asked[i] = true
		mu.Unlock()
		time.Sleep(time.Millisecond) // others start meanwhile, if they may
		mu.Lock()
		running--
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, ok := range asked {
		if !ok {
			t.Errorf("host %s was not asked", hosts[i].Name)
		}
	}
	if most > remote.MaxAsked {
		t.Errorf("%d hosts asked at once, want at most %d", most, remote.MaxAsked)
	}
}

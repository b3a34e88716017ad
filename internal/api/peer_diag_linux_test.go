package api

import (
	"net"
	"net/netip"
	"testing"
)

// sock_diag finds a connection this process made and names the user
// /proc/net's tables name for it, over IPv4 and IPv6; it finds no
// connection that does not exist.
func TestDiagPeerIsTheTables(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0"} {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Logf("%s: %v", addr, err)
			continue
		}
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		s, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		client := netip.MustParseAddrPort(s.RemoteAddr().String())
		server := netip.MustParseAddrPort(s.LocalAddr().String())
		uid, found, err := diagPeer(client, server)
		if err != nil {
			t.Fatalf("%s: sock_diag: %v", addr, err)
		}
		table := "/proc/net/tcp"
		if !client.Addr().Is4() {
			table += "6"
		}
		want, wantFound, err := findSocket(table, client, server)
		if err != nil || !wantFound {
			t.Fatalf("%s: %s: %v, found %v", addr, table, err, wantFound)
		}
		if !found || uid != want {
			t.Errorf("%s: sock_diag says %d, %v; the table %d", addr, uid, found, want)
		}
		c.Close()
		s.Close()
		ln.Close()
	}
	none := netip.MustParseAddrPort("127.0.0.1:1")
	if _, found, err := diagPeer(none, netip.MustParseAddrPort("127.0.0.1:2")); err != nil || found {
		t.Errorf("no connection: found %v, %v", found, err)
	}
}

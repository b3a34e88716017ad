package api

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"net/netip"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// peerUID tells which user owns the client end of a TCP connection on
// this machine, from the kernel's sockets: the one whose local address is
// the client's and whose remote address is ours, asked through
// sock_diag, else looked for in the tables of /proc/net. known is false
// when neither can be read or the addresses are not TCP.
func peerUID(client, server string) (uid int, known bool) {
	c, err1 := netip.ParseAddrPort(client)
	s, err2 := netip.ParseAddrPort(server)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	if uid, found, err := diagPeer(c, s); err == nil {
		if !found {
			return -1, true
		}
		return uid, true
	}
	read := false
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		uid, found, err := findSocket(table, c, s)
		if err != nil {
			continue
		}
		read = true
		if found {
			return uid, true
		}
	}
	if !read {
		return 0, false
	}
	return -1, true // the tables were read and hold no such socket
}

// diagPeer is peerUID through sock_diag (diagUID): the socket is looked
// for as IPv4 when both addresses are (mapped or not), and as IPv6, as
// the two tables hold them.
func diagPeer(client, server netip.AddrPort) (uid int, found bool, err error) {
	families := []uint8{unix.AF_INET6}
	if a, b := client.Addr(), server.Addr(); (a.Is4() || a.Is4In6()) && (b.Is4() || b.Is4In6()) {
		families = []uint8{unix.AF_INET, unix.AF_INET6}
	}
	for _, family := range families {
		if uid, found, err = diagUID(client, server, family); err != nil || found {
			return uid, found, err
		}
	}
	return 0, false, nil
}

// findSocket looks for the socket local→remote in one /proc/net table.
func findSocket(table string, local, remote netip.AddrPort) (uid int, found bool, err error) {
	v6 := strings.HasSuffix(table, "6")
	want := procAddr(local, v6) + " " + procAddr(remote, v6)
	f, err := os.Open(table)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	wanted := []byte(want)
	for sc.Scan() {
		if !bytes.Contains(sc.Bytes(), wanted) {
			continue // split only the line that may be it
		}
		// sl local_address rem_address st tx:rx tr:when retrnsmt uid …
		fields := strings.Fields(sc.Text())
		if len(fields) < 8 || fields[1]+" "+fields[2] != want {
			continue
		}
		uid, err := strconv.Atoi(fields[7])
		return uid, err == nil, err
	}
	return 0, false, sc.Err()
}

// procAddr writes an address as /proc/net/tcp{,6} does: each 32-bit word
// of the address in the machine's byte order, in hex, then the port.
func procAddr(ap netip.AddrPort, v6 bool) string {
	var b []byte
	switch a := ap.Addr(); {
	case v6:
		b16 := a.As16() // an IPv4 address as ::ffff:a.b.c.d
		b = b16[:]
	case a.Is4() || a.Is4In6():
		b4 := a.Unmap().As4()
		b = b4[:]
	default:
		return "-" // an IPv6 address is never in the IPv4 table
	}
	var sb strings.Builder
	for i := 0; i < len(b); i += 4 {
		fmt.Fprintf(&sb, "%08X", binary.NativeEndian.Uint32(b[i:i+4]))
	}
	fmt.Fprintf(&sb, ":%04X", ap.Port())
	return sb.String()
}

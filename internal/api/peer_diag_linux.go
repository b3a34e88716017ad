package api

import (
	"encoding/binary"
	"errors"
	"net/netip"

	"golang.org/x/sys/unix"
)

// diagUID asks the kernel for the TCP socket local→remote by its
// addresses, through sock_diag (netlink: what ss uses), and returns the
// user that owns it, as /proc/net/tcp would: one lookup in the kernel's
// hash of sockets instead of a text table of every socket of the
// machine, which a busy server's closed connections (TIME_WAIT) make
// long. found is false when no socket has these addresses; an error says
// the kernel could not be asked (no sock_diag), and the tables are read
// instead.
func diagUID(local, remote netip.AddrPort, family uint8) (uid int, found bool, err error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return 0, false, err
	}
	defer unix.Close(fd)
	if err := unix.Sendto(fd, diagRequest(local, remote, family), 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return 0, false, err
	}
	buf := make([]byte, 4096)
	n, from, err := unix.Recvfrom(fd, buf, 0)
	if err != nil {
		return 0, false, err
	}
	if nl, ok := from.(*unix.SockaddrNetlink); !ok || nl.Pid != 0 {
		return 0, false, errors.New("sock_diag: an answer not from the kernel")
	}
	return diagAnswer(buf[:n])
}

// Sizes and offsets of the kernel's structures (linux/netlink.h,
// linux/inet_diag.h), all in the machine's byte order but the ports and
// addresses, which are in the network's.
const (
	nlmsgHeader   = 16 // struct nlmsghdr
	diagReqSize   = 56 // struct inet_diag_req_v2
	diagSockID    = 8  // offset of its struct inet_diag_sockid
	diagMsgUID    = 64 // offset of idiag_uid in struct inet_diag_msg
	diagMsgMinLen = 72 // struct inet_diag_msg
	diagAllStates = 0xffffffff
)

// diagRequest is the netlink message that asks for one socket.
func diagRequest(local, remote netip.AddrPort, family uint8) []byte {
	m := make([]byte, nlmsgHeader+diagReqSize)
	ne := binary.NativeEndian
	ne.PutUint32(m[0:], uint32(len(m)))
	ne.PutUint16(m[4:], unix.SOCK_DIAG_BY_FAMILY)
	ne.PutUint16(m[6:], unix.NLM_F_REQUEST)
	r := m[nlmsgHeader:]
	r[0], r[1] = family, unix.IPPROTO_TCP
	ne.PutUint32(r[4:], diagAllStates)
	id := r[diagSockID:]
	binary.BigEndian.PutUint16(id[0:], local.Port())
	binary.BigEndian.PutUint16(id[2:], remote.Port())
	putAddr(id[4:20], local.Addr(), family)
	putAddr(id[20:36], remote.Addr(), family)
	ne.PutUint32(id[40:], 0xffffffff) // INET_DIAG_NOCOOKIE: any socket
	ne.PutUint32(id[44:], 0xffffffff)
	return m
}

// putAddr writes a in the family's form: 4 bytes for AF_INET, 16 else.
func putAddr(b []byte, a netip.Addr, family uint8) {
	if family == unix.AF_INET {
		a4 := a.Unmap().As4()
		copy(b, a4[:])
		return
	}
	a16 := a.As16()
	copy(b, a16[:])
}

// diagAnswer reads the kernel's answer to diagRequest.
func diagAnswer(m []byte) (uid int, found bool, err error) {
	if len(m) < nlmsgHeader {
		return 0, false, errors.New("sock_diag: short answer")
	}
	ne := binary.NativeEndian
	switch ne.Uint16(m[4:]) {
	case unix.NLMSG_ERROR:
		if len(m) < nlmsgHeader+4 {
			return 0, false, errors.New("sock_diag: short error")
		}
		switch errno := unix.Errno(-int32(ne.Uint32(m[nlmsgHeader:]))); errno {
		case unix.ENOENT:
			return 0, false, nil
		default:
			return 0, false, errno
		}
	case unix.SOCK_DIAG_BY_FAMILY:
		if len(m) < nlmsgHeader+diagMsgMinLen {
			return 0, false, errors.New("sock_diag: short message")
		}
		return int(ne.Uint32(m[nlmsgHeader+diagMsgUID:])), true, nil
	}
	return 0, false, errors.New("sock_diag: unexpected answer")
}

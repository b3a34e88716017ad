//go:build !linux

package api

// peerUID cannot tell the user of a connection here: there is no
// portable way to ask, and the API relies on MAS_API_TOKEN instead.
func peerUID(client, server string) (uid int, known bool) { return 0, false }

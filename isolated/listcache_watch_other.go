//go:build !linux

package isolated

// sessionWatch needs inotify: elsewhere a ListCache that lists again
// and again stats every .session, as it did before it could watch.
type sessionWatch struct{}

// Watch does nothing where there is no inotify.
func (c *ListCache) Watch() {}

// Close does nothing: there is no watch to end.
func (c *ListCache) Close() {}

// trustWatched is never called: c.watch stays nil.
func (c *ListCache) trustWatched([]cachedID, []statKey, bool, int64) {}

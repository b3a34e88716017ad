package envfile

// sessionKeys are an isolated session's keys (isolated owns the list): the
// tests parse and write real .session files with them.
var sessionKeys = []string{
	"SESSION_ID", "TMUX_SESSION", "STATUS", "CREATED_AT", "UNIT_DIR", "WORKFLOWS_DIR", "SESSION_DIR",
	"MAS_SESSION_DIR", "MAS_WORKSPACE_ROOT", "MAS_SESSION_MODE",
}

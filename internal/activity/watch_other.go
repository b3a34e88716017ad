//go:build !linux

package activity

import "context"

// watchKernel has no kernel to ask here: poll watches.
func watchKernel(context.Context, []string, func()) bool { return false }

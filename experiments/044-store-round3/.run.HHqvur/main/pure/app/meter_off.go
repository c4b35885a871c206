//go:build purenobudget

package app

// metered is false in a build with the tag purenobudget: no budget code
// runs, for measuring what the budget's branches cost (see meter_on.go).
func (t *Turn) metered() bool { return false }

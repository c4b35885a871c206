//go:build !purenobudget

package app

// metered reports whether the turn's rows are charged to a budget. Built
// with the tag purenobudget it is the constant false, so the compiler
// drops every charge: the build without budget code that the cost of the
// budget's branches is measured against (experiment 035).
func (t *Turn) metered() bool { return t.meter }

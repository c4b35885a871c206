package judge

import "errors"

// Soft problems found while summarizing. They travel in Warnings fields and
// never stop a judgement.
var (
	// errNoValues reports a summary asked for no values at all.
	errNoValues = errors.New("no values to summarize")
)

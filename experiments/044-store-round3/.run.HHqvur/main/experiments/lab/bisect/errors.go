package bisect

import "errors"

// Errors returned by Run.
var (
	// ErrNoRise is returned when the count at bad is not above the
	// threshold over the count at good: there is nothing to bisect.
	ErrNoRise = errors.New("no rise to bisect")
)

package pairs

import (
	"errors"
)

// Errors returned by Run, grouped by phase. Callers test them with errors.Is.
var (
	// ErrRunsExist is returned when the experiment already has recorded runs
	// and resume was not asked for.
	ErrRunsExist = errors.New("experiment already has runs")
	// ErrMetaMismatch is returned when resuming an experiment whose meta.json
	// names other commits than the ones asked for.
	ErrMetaMismatch = errors.New("experiment was started for other commits")
)

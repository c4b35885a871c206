// Package suite reads the declarative list of workloads an experiment runs:
// a line-based .suite file (format in suite.go, type Suite) with
// line-numbered errors (ParseError, errors.go). Suites are looked up by
// name in EXPERIMENTS/suites/ (build.Options.SuitesDir), or given by path.
package suite

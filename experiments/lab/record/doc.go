// Package record defines the run record: one JSON object per line in an
// experiment's runs.jsonl, one line per run of one workload on one side of
// one pair. docs/records.md documents the schema and its versions.
package record

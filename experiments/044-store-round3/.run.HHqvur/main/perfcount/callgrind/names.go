package callgrind

import (
	"fmt"
	"strings"
)

// namespace selects one of the name compression tables. Callgrind shares
// IDs between the keys that name the same kind of thing: "fl=", "fi=",
// "fe=", "cfi=", "cfl=" and "jfi=" name files; "ob=" and "cob=" objects;
// "fn=", "cfn=" and "jfn=" functions.
type namespace int

const (
	nsFile namespace = iota
	nsObject
	nsFunc
	numNamespaces
)

// names holds the name compression tables of one file. IDs stay defined
// from their definition to the end of the file, across parts.
type names [numNamespaces]map[uint64]string

// resolve decodes a position name: "(ID) name" defines ID and returns
// name, "(ID)" returns the name defined earlier, and anything else (which
// does not start with "(" and a digit) is the name itself.
func (n *names) resolve(ns namespace, value string) (string, error) {
	value = strings.TrimLeft(value, " \t")
	if len(value) < 2 || value[0] != '(' || value[1] < '0' || value[1] > '9' {
		return value, nil
	}
	end := strings.IndexByte(value, ')')
	if end < 0 {
		return "", fmt.Errorf("compressed name %q has no closing ')': expected (ID) or (ID) name", shorten(value))
	}
	id, err := parseNumber(value[1:end])
	if err != nil {
		return "", fmt.Errorf("compressed name ID %q is not a number: expected (ID) or (ID) name", shorten(value[1:end]))
	}
	rest := strings.TrimLeft(value[end+1:], " \t")
	if n[ns] == nil {
		n[ns] = make(map[uint64]string)
	}
	if rest == "" {
		name, ok := n[ns][id]
		if !ok {
			return "", fmt.Errorf("compressed name (%d) is used before it is defined: expected (%d) name first", id, id)
		}
		return name, nil
	}
	// A later definition of the same ID replaces the earlier one;
	// callgrind repeats definitions at the start of each part.
	n[ns][id] = rest
	return rest, nil
}

#!/usr/bin/env python3
"""Summarises sizes-REV.txt (probe 1014) into summary.md: per run, groups, commits a group, the
share of commits in groups of 24 or more, and the longest stretch of consecutive groups of one
size under 16 (a cohort plateau) with that size. Usage: summary.py sizes-*.txt > summary.md"""
import re, sys

print("| revision | run | groups | commits a group | commits in groups of 24+ | longest plateau under 16 (groups x size) |")
print("|---|---:|---:|---:|---:|---|")
for path in sys.argv[1:]:
    rev = re.search(r"sizes-(\w+)\.txt", path).group(1)
    for line in open(path):
        m = re.match(r"run (\d+): (\d+) commits in (\d+) groups: \[(.*)\]", line)
        run, commits, groups = int(m[1]), int(m[2]), int(m[3])
        sizes = [int(x) for x in m[4].split()]
        big = sum(x for x in sizes if x >= 24) / sum(sizes)
        best, size, cur = 0, 0, 0
        for i, x in enumerate(sizes):
            cur = cur + 1 if i and x == sizes[i - 1] else 1
            if x < 16 and cur > best:
                best, size = cur, x
        print(f"| {rev} | {run} | {groups} | {commits / groups:.1f} | {100 * big:.0f} % | {best} x {size} |")

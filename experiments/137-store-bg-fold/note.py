#!/usr/bin/env python3
"""Experiment 137's note, through scripts/pairs64note.py (which this script was
generalised into). Usage: python3 note.py pairs-1.jsonl [pairs-2.jsonl ...] > note.md"""
import os, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.exit(subprocess.call([sys.executable, os.path.join(here, "..", "..", "scripts", "pairs64note.py"), "--tag", "137",
                          "--title", "# 137: the fold off the sync path (background folds, prefold) against main, 64 writers beside pebble"]
                         + [os.path.join(here, f) for f in sys.argv[1:]]))

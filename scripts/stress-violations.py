#!/usr/bin/env python3
"""Prints the violations a `schedbench stress` run recorded in its stress.csv, as
`scenario: kind, kind; scenario: kind` ("-" for none, "no stress.csv" when it is missing):
the one-line summary scripts/stress-catalogue.sh and scripts/stress-reliability.sh print.

    scripts/stress-violations.py RESULTS/stress.csv
"""
import csv
import os
import sys


def main():
    path = sys.argv[1]
    if not os.path.exists(path):
        print("no stress.csv")
        return
    found = {}
    with open(path, newline="") as file:
        for row in csv.DictReader(file):
            if row["record"] == "violation" and row["count"] != "0":
                found.setdefault(row["scenario"], set()).add(row["name"])
    print("; ".join(f"{scenario}: {', '.join(sorted(kinds))}" for scenario, kinds in sorted(found.items())) or "-")


if __name__ == "__main__":
    main()

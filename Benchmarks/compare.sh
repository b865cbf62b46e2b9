#!/usr/bin/env bash
# Runs the benchmark suite once and prints one table of medians per workload and size, with
# the ratios SQLiteStore/GRDB and SQLiteStore/rawC (and GRDB/rawC, the peer against the floor).
#
#   Benchmarks/compare.sh                          # the whole suite (under 15 minutes on 2 cores)
#   Benchmarks/compare.sh --filter 'insert/.*'     # any other `swift package benchmark` options
#   Benchmarks/compare.sh --from run.influx.csv    # re-print the table of a saved run
#   Benchmarks/compare.sh --save run.influx.csv    # run, print, and keep the raw export
#
# The benchmark tool's own output goes to stderr; the table goes to stdout.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export_file=""
save_to=""
benchmark_options=()
while (($#)); do
    case "$1" in
        --from) export_file="$2"; shift 2 ;;
        --save) save_to="$2"; shift 2 ;;
        *) benchmark_options+=("$1"); shift ;;
    esac
done

if [[ -z "$export_file" ]]; then
    work="$(mktemp -d)"
    # The seeded fixture databases are cached there by the benchmarks (see Fixtures.swift).
    trap 'rm -rf "$work" "${TMPDIR:-/tmp}/sqlitestore-benchmarks"' EXIT
    swift package --package-path "$here" benchmark --format influx --path "$work" --no-progress \
        ${benchmark_options[@]+"${benchmark_options[@]}"} >&2
    export_file="$work/Current_run.influx.csv"
    if [[ -n "$save_to" ]]; then cp "$export_file" "$save_to"; fi
fi

# Influx export columns: 4 processors, 5 memory (GB), 7 metric, 9 test (workload/rows/library),
# 10 percentile, 11 value (nanoseconds, bytes or counts, unscaled), 15 time of the run.
awk -F, '
    function show(value, kind) {
        if (value == "") return "-"
        if (kind == "bytes") return sprintf("%.1f MiB", value / 1048576)
        if (value >= 1e9) return sprintf("%.2f s", value / 1e9)
        if (value >= 1e6) return sprintf("%.1f ms", value / 1e6)
        return sprintf("%.0f us", value / 1e3)
    }
    function ratio(a, b) { return (a == "" || b == "" || b == 0) ? "-" : sprintf("%.2fx", a / b) }
    $10 != "50.0" { next }
    {
        split($9, name, "/")
        workload = name[1]; rows = name[2]; library = name[3]
        memory = (index(workload, "frcMemory") == 1)
        if (memory ? index($7, "Δ") == 0 : $7 != "Time(wallclock)") next
        median[workload, rows, library] = $11
        seen[workload, rows] = 1
        machine = $4 " cores, " $5 " GB memory"
        date = substr($15, 1, 10)
    }
    END {
        split("insert notifyOverhead fetchAll fetchPage observeUpdate observeInsert observeDelete observeBulk observeRelated frcMemory frcMemoryText frcMemoryLongText", workloads, " ")
        split("10k 100k 1M", sizes, " ")
        printf "Medians of one run on %s (%s); frcMemory is the resident memory peak above the\n", date, machine
        printf "process baseline, everything else wall-clock time. - means not run (see BenchmarkPlan.swift).\n\n"
        format = "%-15s %5s %12s %12s %12s %12s %10s %10s %11s %10s\n"
        printf format, "workload", "rows", "SQLiteStore", "SQLiteStoreMacro", "GRDB", "rawC", "ours/GRDB", "ours/rawC", "macro/rawC", "GRDB/rawC"
        for (w = 1; w <= 11; w++) for (s = 1; s <= 3; s++) {
            workload = workloads[w]; rows = sizes[s]
            if (!((workload, rows) in seen)) continue
            kind = (index(workload, "frcMemory") == 1) ? "bytes" : "time"
            ours = median[workload, rows, "SQLiteStore"]; grdb = median[workload, rows, "GRDB"]; raw = median[workload, rows, "rawC"]
            macro = median[workload, rows, "SQLiteStoreMacro"]
            printf format, workload, rows, show(ours, kind), show(macro, kind), show(grdb, kind), show(raw, kind), \
                ratio(ours, grdb), ratio(ours, raw), ratio(macro, raw), ratio(grdb, raw)
        }
        printf "\nLive values on any actor, every value in hand: LiveValues beside GRDB'"'"'s ValueObservation\n"
        printf "%-15s %5s %12s %12s %10s %10s\n", "workload", "rows", "LiveValues", "GRDB", "/GRDB", "/rawC"
        for (w = 5; w <= 9; w++) for (s = 1; s <= 3; s++) {
            workload = workloads[w]; rows = sizes[s]
            values = median[workload, rows, "SQLiteStoreValues"]
            if (values == "") continue
            grdb = median[workload, rows, "GRDB"]; raw = median[workload, rows, "rawC"]
            printf "%-15s %5s %12s %12s %10s %10s\n", workload, rows, show(values, "time"), show(grdb, "time"), \
                ratio(values, grdb), ratio(values, raw)
        }
        printf "\nSubscriber overhead: notifyOverhead / insert, per library\n"
        printf "%5s %12s %12s %12s\n", "rows", "SQLiteStore", "GRDB", "rawC"
        for (s = 1; s <= 3; s++) {
            rows = sizes[s]
            if (!(("notifyOverhead", rows) in seen)) continue
            printf "%5s %12s %12s %12s\n", rows, \
                ratio(median["notifyOverhead", rows, "SQLiteStore"], median["insert", rows, "SQLiteStore"]), \
                ratio(median["notifyOverhead", rows, "GRDB"], median["insert", rows, "GRDB"]), \
                ratio(median["notifyOverhead", rows, "rawC"], median["insert", rows, "rawC"])
        }
    }
' "$export_file"

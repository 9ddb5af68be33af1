#!/usr/bin/env bash
# Mutation testing of the library: changes one operator of Sources/_MulticastCore or Sources/Multicast at a time
# (`==` to `!=`, `<` to `<=`, `true` to `false`, a `!` removed, `.strong` to `.weak`, a call statement dropped, ...)
# in a scratch copy of the package (.build/mutations/package), builds it in debug with the registry's internal
# checks, and runs the library's tests but the stress tests. Each mutant the tests do not notice is printed as
# SURVIVED; the run exits 1 if one survives, unless --report-only. The sample is seeded: the same seed and the
# same sources give the same mutants. See "Mutation testing" in CONTRIBUTING.md.
#
# usage: bash Scripts/check-mutations.sh [--seed N] [--sample N] [--all] [--only FILE:LINE ...] [--timeout S]
#                                        [--list] [--report-only]
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 Scripts/mutations.py "$@"

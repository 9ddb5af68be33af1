# Sourced by the self-tests of the checks that read a copy of the sources as a Python script (`doc-links.py`,
# `model-table.py`): each break is planted in a scratch copy, and the check must fail on it, naming it.
# The sourcing script defines `fail`.

# Copies the paths $2... into a new scratch folder, removed as the script exits, and fails unless the check $1
# passes on the copy as it is.
copy_for_planting() {
    local check="$1" input
    shift
    scratch="$(mktemp -d)"   # read by plant(), and by the trap as the script exits
    trap 'rm -rf "$scratch"' EXIT
    for input in "$@"; do
        mkdir -p "$scratch/$(dirname "$input")"
        cp -R "$input" "$scratch/$input"
    done
    python3 "$check" "$scratch" >/dev/null || fail "$check fails on the sources as they are"
}

# Plants a break in the copy: $2 names it, $3 is the file, $4 a Perl substitution that must change it, $5 what
# the check $1 must name. Fails unless the check fails, naming it; then puts the file back.
plant() {
    local check="$1" name="$2" file="$3" substitution="$4" expected="$5" log="$scratch/check.log"
    cp "$file" "$scratch/$file"
    perl -0pi -e "$substitution" "$scratch/$file"
    cmp -s "$file" "$scratch/$file" && fail "the planted break ($name) no longer applies to $file: change it in $0"
    if python3 "$check" "$scratch" >"$log" 2>&1; then
        cat "$log"
        fail "$check did not fail with the planted break ($name)"
    fi
    grep -qF -- "$expected" "$log" || {
        cat "$log"
        fail "$check failed with the planted break ($name), but did not name $expected"
    }
    cp "$file" "$scratch/$file"
    echo "planted break ($name): the check fails:"
    grep -F -- "$expected" "$log" | sed 's/^/    /'
}

# Sourced by check-demo.sh and check-tui.sh, after they set `demo` to the built ChatDemo: what both derive
# their expectations from.

# joined SEPARATOR NAME...: the names with SEPARATOR between them.
joined() {
    local separator=$1 first=$2
    shift 2
    printf '%s' "$first" "${@/#/$separator}"
}

# The screens the demo opens at start, in order, as it names them: chats#1, conversation#1, ... The checks
# derive what they expect from this list, so that a new kind of screen changes none of them.
mapfile -t first < <("$demo" </dev/null | sed -n 's/ has been subscribed$//p')
if ((${#first[@]} < 2)); then
    echo "error: the demo opened ${#first[@]} screens at start: ${first[*]}" >&2
    exit 1
fi

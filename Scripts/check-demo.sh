#!/usr/bin/env bash
# End-to-end check of `swift run ChatDemo`: builds the executable, pipes a session in (with /trace on, then off),
# plays --demo, and checks what they print. Run from anywhere: `bash Scripts/check-demo.sh`.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --product ChatDemo
demo="$(swift build --product ChatDemo --show-bin-path)/ChatDemo"

source Scripts/demo-screens.sh  # joined, and the screens the demo opens at start: first

failures=0
# expect COUNT TEXT OUTPUT WHAT: OUTPUT has exactly COUNT lines that contain TEXT (a fixed string).
# Set WHOLE_LINE=1 to count only lines that are exactly TEXT.
expect() {
    local count=$1 pattern=$2 output=$3 what=$4 found
    found=$(grep -cF ${WHOLE_LINE:+-x} -- "$pattern" <<<"$output" || true)
    if [[ $found -eq $count ]]; then
        printf 'ok    %s\n' "$what"
    else
        printf 'FAIL  %s: %s lines with "%s", expected %s\n' "$what" "$found" "$pattern" "$count"
        failures=$((failures + 1))
    fi
}

# Piped input: no prompt, no colors (stdout is a pipe), the session ends at the end of the input.
session=$(printf '%s\n' \
    'hi' \
    '/open chats' \
    '/close banner' \
    'bye' \
    '/screens' \
    '/burst 2000' \
    '/unread' \
    '/bogus' \
    '/burst -1' \
    'still here' \
    '/trace' \
    '/open banner' \
    'traced' \
    '/burst 10' \
    '/trace' \
    'untraced' |
    "$demo")

# The screens open after `/open chats` and `/close banner`, in the order they opened; and what each answers to
# /unread after the burst: a chat list counts what it has not shown as read, the other screens show every message
# at once.
open=()
unread=()
for name in "${first[@]}" chats#2; do
    [[ $name == banner#1 ]] && continue
    open+=("$name")
    case $name in
    chats#1) unread+=("$name 2002") ;;
    chats#2) unread+=("$name 2001") ;;
    *) unread+=("$name 0") ;;
    esac
done

expect "${#first[@]}" 'received "hi"' "$session" "every screen opened at start received a message: ${first[*]}"
expect 1 'banner#1 left (released; no remove call)' "$session" 'a closed screen says it left'
expect "${#open[@]}" 'received "bye"' "$session" 'every open screen received the next message'
expect 0 'banner#1 received "bye"' "$session" 'a closed screen did not receive'
expect 1 "${#open[@]} screens subscribed: $(joined ', ' "${open[@]}")" "$session" '/screens counts and names them'
expect 1 "every open screen received exactly 2000: $(joined ', ' "${open[@]}")" "$session" '/burst totals'
expect 1 "unread: $(joined ', ' "${unread[@]}"); total 4003" "$session" '/unread total'
expect 2 'error: ' "$session" 'bad input gives one error line each'
expect "${#open[@]}" 'received "still here"' "$session" 'the session goes on after bad input'

# /trace: the message after it is traced, a line for the call and one per screen called, in the order they
# opened; every screen, opened before /trace or after it, with its site (the session records sites from its start).
traced=("${open[@]}" banner#2)
trace=$(sed -n '/^> traced$/,/^> /p' <<<"$session" | grep '^trace:' || true)
expect 1 'trace on: ' "$session" '/trace turns the trace on'
expect 1 "trace: messages call, ${#traced[@]} screens, " "$trace" 'the traced message: one line for the call'
turns=$(grep -F 'trace:   ' <<<"$trace" | sed -E 's/^trace:   ([^,]*),.*/\1/' | paste -sd' ' || true)
if [[ $turns == "${traced[*]}" ]]; then
    printf 'ok    the traced message: a line per screen called, in order: %s\n' "$turns"
else
    printf 'FAIL  the traced message: screens "%s", expected "%s"\n' "$turns" "${traced[*]}"
    failures=$((failures + 1))
fi
expect "${#open[@]}" ', added at ChatSession.swift:' "$(grep -vF 'banner#2' <<<"$trace")" \
    'screens opened before /trace: their site'
expect 1 'trace:   banner#2, added at ChatSession.swift:' "$trace" 'the screen opened after /trace: its site'
timed=$(grep -cE ', [0-9]+(\.[0-9])? (ns|µs|ms)$' <<<"$trace" || true)
if [[ $timed -eq $((1 + ${#traced[@]})) ]]; then
    printf 'ok    the traced message: the call and every turn end with a time\n'
else
    printf 'FAIL  the traced message: %s lines end with a time, expected %s\n' "$timed" $((1 + ${#traced[@]}))
    failures=$((failures + 1))
fi
expect 0 'trace:' "$(sed -n '/^> \/burst 10$/,/^> /p' <<<"$session")" 'a burst is not traced'
expect 1 'trace off' "$session" 'the second /trace turns it off'
expect 0 'trace:' "$(sed -n '/^> untraced$/,$p' <<<"$session")" 'no trace after /trace off'
WHOLE_LINE=1 expect 1 'bye' "$session" 'the end of the input ends the session'
expect 0 $'\e[' "$session" 'no colors into a pipe'

# The built-in script: plays with no input and exits 0.
if demo_output=$("$demo" --demo </dev/null); then
    printf 'ok    --demo exits 0\n'
else
    printf 'FAIL  --demo exited %s\n' "$?"
    failures=$((failures + 1))
fi
expect 1 'every open screen received exactly 1000' "$demo_output" '--demo bursts'
expect 1 'unread: ' "$demo_output" '--demo asks for unread counts'
expect 0 'error: ' "$demo_output" '--demo has no errors'
expect 1 'trace:   chats#2, added at ChatSession.swift:' "$demo_output" '--demo traces a message, with a site'

# A bad option fails with the usage.
if "$demo" --bogus >/dev/null 2>&1; then
    printf 'FAIL  an unknown option did not fail\n'
    failures=$((failures + 1))
else
    printf 'ok    an unknown option fails\n'
fi

if ((failures > 0)); then
    printf '%s check(s) failed\n' "$failures"
    exit 1
fi
printf 'ChatDemo end-to-end: all checks passed\n'

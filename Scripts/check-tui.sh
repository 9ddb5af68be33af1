#!/usr/bin/env bash
# End-to-end check of ChatDemo's full-screen view in a real pseudo-terminal: builds the executable, runs it in a
# detached tmux session 40 rows high and 40 columns wide per screen it opens at start (120 for three), types into
# it and reads the screen back with `tmux capture-pane`.
#
# It checks that the view opens on the alternate screen with a pane per screen; that a typed message reaches
# every pane, ASCII or with wide and combining characters, and the pane borders stay aligned; that /close and
# /open take a pane away and add one; that an error shows on the status line and the session goes on; that
# /trace shows, with each message, every screen called, where it was added and its time, and turns off again;
# that /burst ends with its exact-count check; that a resize reflows the panes; that NO_COLOR draws no colors;
# that --demo plays on the full screen and --plain stays line by line, /trace included; and that /quit,
# Control-C, Control-D, SIGTERM and SIGSEGV all give the terminal back: main screen, visible cursor, the `stty`
# settings of before.
#
# Every wait polls with a time limit: a mismatch fails with the captured screen, never hangs.
# Usage: bash Scripts/check-tui.sh (needs tmux: apt-get install tmux)
set -euo pipefail
cd "$(dirname "$0")/.."

command -v tmux >/dev/null || {
    echo "error: tmux is not installed; on Debian: apt-get install -y tmux" >&2
    exit 1
}
export LANG=C.UTF-8  # tmux passes UTF-8 through only in a UTF-8 locale

started=$SECONDS
swift build --product ChatDemo
demo="$(swift build --product ChatDemo --show-bin-path)/ChatDemo"

source Scripts/demo-screens.sh  # joined, and the screens the demo opens at start: first
# After `/close banner` then `/open banner`: the banner goes, and a new one comes last.
closed=()
for name in "${first[@]}"; do
    [[ $name == banner#1 ]] || closed+=("$name")
done
reopened=("${closed[@]}" banner#2)
# Wide enough for a pane of 40 columns per screen, so that a typed message and /burst's line fit whole.
columns=$((40 * ${#first[@]}))

work="$(mktemp -d)"
socket="chatdemo-check-$$-0"
tmx() { tmux -L "$socket" -f /dev/null "$@"; }
trap 'tmx kill-server >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# The shell that runs the demo in the tmux pane: it records the terminal settings before and after, and the exit
# status, then stays, so that the screen after the demo can be read.
cat >"$work/run.sh" <<'SCRIPT'
before=$(stty -g)
"$@"
status=$?
if [ "$before" = "$(stty -g)" ]; then echo "stty: as before"; else echo "stty: CHANGED"; fi
echo "exit status: $status"
exec sleep 600
SCRIPT

failures=0
checks=0
ok() {
    checks=$((checks + 1))
    printf 'ok    %s\n' "$1"
}
fail() {
    checks=$((checks + 1))
    failures=$((failures + 1))
    printf 'FAIL  %s\n' "$1"
    printf -- '----- screen (%s) -----\n' "$(tmx display -p '#{window_width}x#{window_height}' 2>/dev/null || echo gone)"
    tmx capture-pane -p 2>/dev/null || true
    printf -- '-----\n'
}

# start [ENV=VALUE...] -- [OPTION...]: a fresh tmux server, on a socket of its own, whose one pane runs the demo.
starts=0
start() {
    local environment=()
    while [[ $1 != -- ]]; do
        environment+=("$1")
        shift
    done
    shift
    tmx kill-server >/dev/null 2>&1 || true
    starts=$((starts + 1))
    socket="chatdemo-check-$$-$starts"
    tmx -u new-session -d -x "$columns" -y 40 \
        env "${environment[@]}" bash --norc --noprofile "$work/run.sh" "$demo" "$@"
}

screen() { tmx capture-pane -p; }
has() { screen | grep -qF -- "$1"; }
screen_matches() { screen | grep -qE -- "$1"; }
alternate_screen() { [[ $(tmx display -p '#{alternate_on}') == "$1" ]]; }

# until_ok WHAT SECONDS COMMAND...: polls COMMAND every 0.1 s; ok once it succeeds, FAIL when the time is up.
until_ok() {
    local what=$1 limit=$2 deadline=$((SECONDS + $2))
    shift 2
    until "$@"; do
        if ((SECONDS >= deadline)); then
            fail "$what (not within ${limit}s)"
            return 1
        fi
        sleep 0.1
    done
    ok "$what"
}

# type_line TEXT: types the text, then Return.
type_line() {
    tmx send-keys -l -- "$1"
    tmx send-keys Enter
}

# The panes on the screen, from its pane borders, by an independent count of columns (Python's East Asian Width):
# `titles` prints the pane titles in order; `in_every_pane TEXT` succeeds if TEXT is inside every pane; `aligned`
# succeeds if every pane's side borders are in the columns of its corners on every line.
panes() {
    screen >"$work/screen.txt"
    python3 - "$work/screen.txt" "$@" <<'PYTHON'
import sys, unicodedata

def cells(line):
    """The line as (column, character) pairs: wide characters take 2 columns, combining marks 0."""
    out, column = [], 0
    for ch in unicodedata.normalize("NFC", line):
        if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            width = 0
        elif unicodedata.east_asian_width(ch) in "WF":
            width = 2
        else:
            width = 1
        out.append((column, ch))
        column += width
    return out

lines = [cells(line.rstrip("\n")) for line in open(sys.argv[1], encoding="utf-8")]
at = [dict(line) for line in lines]
# A pane: its top-left corner's row and column, its top-right corner's column, its bottom row.
panes = []
for row, line in enumerate(lines):
    for column, ch in line:
        if ch != "┌":
            continue
        right = next((c for c, h in line if c > column and h == "┐"), None)
        bottom = next((r for r in range(row + 1, len(lines)) if at[r].get(column) == "└"), None)
        if right is None or bottom is None:
            continue
        title = "".join(h for c, h in line if column < c < right).strip(" ─")
        panes.append((row, column, right, bottom, title))

command = sys.argv[2]
if command == "titles":
    print(" ".join(p[4] for p in panes))
elif command == "in_every_pane":
    text = unicodedata.normalize("NFC", sys.argv[3])
    def inside(p):
        row, left, right, bottom, _ = p
        return any(text in "".join(h for c, h in lines[r] if left < c < right) for r in range(row + 1, bottom))
    sys.exit(0 if panes and all(inside(p) for p in panes) else 1)
elif command == "aligned":
    def square(p):
        row, left, right, bottom, _ = p
        sides = all(at[r].get(left) == "│" and at[r].get(right) == "│" for r in range(row + 1, bottom))
        return sides and at[bottom].get(right) == "┘"
    sys.exit(0 if panes and all(square(p) for p in panes) else 1)
PYTHON
}
titles_are() { [[ $(panes titles) == "$1" ]]; }
in_every_pane() { panes in_every_pane "$1"; }
aligned() { panes aligned; }

# The demo's process, a child of the pane's shell.
demo_pid() {
    local shell
    shell=$(tmx display -p '#{pane_pid}')
    cat "/proc/$shell/task/$shell/children"
}

# gave_back WHAT STATUS: the demo exited with STATUS and the terminal is as it was before it.
gave_back() {
    local what=$1 status=$2
    until_ok "$what: the program exits with status $status" 10 has "exit status: $status" || return 0
    until_ok "$what: main screen" 2 alternate_screen 0
    until_ok "$what: cursor visible" 2 test "$(tmx display -p '#{cursor_flag}')" = 1
    until_ok "$what: stty settings as before (echo, line editing, signals)" 2 has "stty: as before"
}

set +e  # a failed check is counted and shown, and the checks go on
echo "=== a session: type, /close, /open, errors, /burst, resize, /quit"
start --
until_ok "opens on the alternate screen" 20 alternate_screen 1
until_ok "a pane per screen: ${first[*]}" 10 titles_are "${first[*]}"
type_line "hello from tmux"
until_ok "a typed message shows in every pane" 10 in_every_pane "hello from tmux"
unicode=$'h\u00e9llo \u65e5\u672c\u8a9e e\u0301t\u0301e\u0301'  # héllo 日本語 été, the last with combining acutes
type_line "$unicode"
until_ok "wide and combining characters show in every pane" 10 in_every_pane "$unicode"
until_ok "the pane borders stay aligned" 2 aligned
type_line "/close banner"
until_ok "/close banner: its pane goes" 10 titles_are "${closed[*]}"
until_ok "/close banner: the status line says it was released" 2 has "banner#1 left (released; no remove call)"
type_line "/trace"
until_ok "/trace: the status line says the trace is on" 10 has "trace on: "
type_line "/open banner"
until_ok "/open banner: a pane comes, last" 10 titles_are "${reopened[*]}"
type_line "traced in tmux"
until_ok "/trace: a message shows in every pane" 10 in_every_pane "traced in tmux"
until_ok "/trace: the status lines trace the call" 2 has "trace: messages call, ${#reopened[@]} screens, "
until_ok "/trace: a screen opened before it, where it was added, and its time" 2 \
    screen_matches "^trace:   ${reopened[0]}, added at ChatSession\.swift:[0-9]+, [0-9.]+ (ns|µs|ms)"
until_ok "/trace: the screen opened after it, where it was added" 2 \
    screen_matches "^trace:   banner#2, added at ChatSession\.swift:[0-9]+, [0-9.]+ (ns|µs|ms)"
type_line "/trace"
until_ok "/trace again: the trace is off" 10 has "trace off"
type_line "untraced"
until_ok "/trace off: a message shows in every pane" 10 in_every_pane "untraced"
screen | grep -qF "trace:" && fail "/trace off: the status lines still trace" || ok "/trace off: no trace"
type_line "/bogus"
until_ok "a bad command shows an error on the status line" 10 has "error: unknown command /bogus"
type_line "/burst 2000"
until_ok "/burst ends with the exact-count check" 30 \
    has "every open screen received exactly 2000: $(joined ', ' "${reopened[@]}")"
until_ok "/burst: the counters show every message, the four before it too" 2 has "2004 unread · 2004 received"
tmx resize-window -x 60 -y 40
first_row_panes() { [[ $(screen | head -1 | grep -o '┌' | wc -l) == "$1" ]]; }
until_ok "a resize to 60 columns reflows the panes: two on the first row" 10 first_row_panes 2
until_ok "a resize: every pane still there, in order, aligned" 2 titles_are "${reopened[*]}"
until_ok "a resize: the borders aligned" 2 aligned
tmx resize-window -x "$columns" -y 40
type_line "/quit"
gave_back "/quit" 0

echo "=== Control-C"
start --
until_ok "opens" 20 titles_are "${first[*]}"
tmx send-keys -l "half typed"
tmx send-keys C-c
gave_back "Control-C" 130

echo "=== Control-D"
start --
until_ok "opens" 20 titles_are "${first[*]}"
tmx send-keys C-d
gave_back "Control-D on an empty line" 0

echo "=== SIGTERM"
start --
until_ok "opens" 20 titles_are "${first[*]}"
kill -TERM "$(demo_pid)"
gave_back "SIGTERM" 143

echo "=== SIGSEGV (the terminal back, then the Swift runtime's crash report, then the default action)"
start --
until_ok "opens" 20 titles_are "${first[*]}"
kill -SEGV "$(demo_pid)"
# On a terminal the runtime's crash report asks whether to debug, then returns; the program must still end.
report_or_exit() { has "exit status:" || has "Press space to interact"; }
until_ok "SIGSEGV: the crash report on the main screen, or the end" 30 report_or_exit
has "Press space to interact" && tmx send-keys q
gave_back "SIGSEGV" 139

echo "=== NO_COLOR"
start NO_COLOR=1 --
until_ok "opens" 20 titles_are "${first[*]}"
type_line "/bogus"
until_ok "the error shows" 10 has "error: unknown command /bogus"
if tmx capture-pane -p -e | grep -qE $'\e\\[[0-9;]*[1-9][0-9;]*m'; then
    fail "NO_COLOR: the screen has colors or styles"
else
    ok "NO_COLOR: no colors or styles on the screen"
fi
tmx send-keys C-d
gave_back "NO_COLOR session" 0

echo "=== --demo on the full screen"
start -- --demo
until_ok "--demo types its first message into the panes" 20 in_every_pane "hello, screens"
tmx send-keys C-c
gave_back "--demo, interrupted" 130

echo "=== --plain on a terminal"
start -- --plain
until_ok "--plain: a line per event, on the main screen" 20 has "${first[-1]} has been subscribed"
alternate_screen 0 && ok "--plain: no alternate screen" || fail "--plain: on the alternate screen"
type_line "hi"
every_screen_received_hi() {
    local name
    for name in "${first[@]}"; do has "$name received \"hi\"" || return 1; done
}
until_ok "--plain: each screen prints what it received" 10 every_screen_received_hi
type_line "/trace"
type_line "/open chats"
type_line "plain and traced"
until_ok "--plain /trace: a line for the call" 10 has "trace: messages call, $((${#first[@]} + 1)) screens, "
until_ok "--plain /trace: the screen opened after it, where it was added" 2 \
    screen_matches "^trace:   chats#2, added at ChatSession\.swift:[0-9]+, [0-9.]+ (ns|µs|ms)"
type_line "/quit"
gave_back "--plain" 0

if ((failures > 0)); then
    printf '%s of %s check(s) failed\n' "$failures" "$checks"
    exit 1
fi
printf 'ChatDemo full screen end-to-end: all %s checks passed in %s s\n' "$checks" $((SECONDS - started))

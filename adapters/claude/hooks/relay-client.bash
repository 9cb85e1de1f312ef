# Sourced by the bash hooks (`permission-fast`, `report`): one HTTP/1.1 request to the relay on
# this machine over bash's /dev/tcp, with the hook credential, and nothing but builtins (no
# process is started). The caller sets LC_ALL=C (lengths in bytes).

# after_tool_ends DIR: returns once no tool-end report (`DIR/report PostToolUse…`, or the
# `DIR/spool PostToolUse…` it became) of this hook's agent is still running, or after 2 s. Claude
# Code runs those in the background (REPORT-5), so a call's start or a turn's end waits here for
# the ends before it. Claude Code starts its hooks
# itself: they are the children of this hook's parent (/proc/PPID/task/*/children), each seen
# from its command line. No /proc (macOS): nothing is waited for. Builtins only while nothing is
# running; between looks at one that is, a `sleep`.
after_tool_ends() {
  local report=$1/report spool=$1/spool until=$(( ${EPOCHREALTIME/./} + 2000000 )) children pid busy
  local -a kids argv
  while :; do
    busy=
    for children in "/proc/$PPID/task/"*/children; do
      kids=()
      { read -r -a kids <"$children"; } 2>/dev/null
      for pid in "${kids[@]}"; do
        [[ $pid == "$$" ]] && continue
        argv=()
        { mapfile -d '' -t argv <"/proc/$pid/cmdline"; } 2>/dev/null
        # A report that gave up on the relay goes on as `spool` (exec: the same process) until
        # its record is in the spool, where a later hook must see it (ORDER-1).
        [[ ( ${argv[1]:-} == "$report" || ${argv[1]:-} == "$spool" ) && ${argv[2]:-} == PostToolUse* ]] && { busy=1; break 2; }
      done
    done
    [[ -n $busy ]] && (( ${EPOCHREALTIME/./} < until )) || return 0
    sleep 0.002 2>/dev/null || return 0
  done
}

# relay_target: sets `token`, `host`, `port` and `address`: the token is COMMANDR_HOOK_TOKEN (a
# scoped one a relay-started job gets), else $COMMANDR_HOME/hook-token; the URL is COMMANDR_URL,
# else the one in relay.json — only while the relay that wrote relay.json still runs (its pid
# alive with the start time it recorded: HOOKCRED-1), since a killed relay's port may be held by
# anyone now; COMMANDR_URL is refused too when relay.json names its port for a relay that is gone
# (HOOKCRED-2). Fails unless the URL is plain http on loopback — the credential never leaves this
# machine this way — and when no live relay recorded one: the caller then takes its no-relay path.
relay_target() {
  local home=${COMMANDR_HOME:-${HOME:-/nonexistent}/.commandr} url=${COMMANDR_URL:-} info= recorded=
  token=${COMMANDR_HOOK_TOKEN:-}
  [[ -n $token ]] || { read -r token <"$home/hook-token"; } 2>/dev/null
  [[ $token =~ ^[A-Za-z0-9_.-]{32,}$ ]] || return 1
  { read -r info <"$home/relay.json"; } 2>/dev/null
  [[ $info =~ \"url\":\"([^\"]*)\" ]] && recorded=${BASH_REMATCH[1]%/}
  if [[ -n $recorded && ( -z $url || ${url%/} == "$recorded" ) ]]; then
    relay_alive || return 1
    url=$recorded
  fi
  [[ $url =~ ^http://(127\.[0-9]+\.[0-9]+\.[0-9]+|localhost|\[::1\]):([0-9]{1,5})/?$ ]] || return 1
  host=${BASH_REMATCH[1]} port=${BASH_REMATCH[2]}
  address=${host#[} address=${address%]}
}

# relay_alive: the process named by relay.json (`info`) runs and, where /proc tells it, started
# when relay.json says (field 22 of /proc/<pid>/stat), so a reused pid does not pass. Builtins only.
relay_alive() {
  local - pid started stat head
  local -a f
  # One match for both (the relay writes them in this order; any other file is no relay).
  [[ $info =~ \"pid\":([0-9]+),\"started\":(\"([0-9]+)\"|null) ]] || return 1
  pid=${BASH_REMATCH[1]} started=${BASH_REMATCH[3]}
  if [[ -r /proc/self/stat ]]; then
    [[ -n $started ]] || return 1
    { read -r stat <"/proc/$pid/stat"; } 2>/dev/null || return 1
    # The command name (field 2, at most 15 bytes) may hold spaces and parentheses: fields 3… start
    # after the last ") " of the first 40 bytes (a 7-digit pid, the name in parentheses). Matching
    # only those 40 keeps this cheap; a ## over the whole line costs a bash hook ~0.2 ms.
    head=${stat:0:40} head=${head##*) }
    set -f # the fields are numbers and one state letter; no globbing, whatever they hold
    f=(${stat:40-${#head}})
    [[ ${f[19]:-} == "$started" ]]
  else
    kill -0 "$pid" 2>/dev/null
  fi
}

# relay_fields KEY…: sets `fields` to `KEY=value` for each KEY that is set.
relay_fields() {
  local key
  fields=()
  for key in "$@"; do [[ -v $key ]] && fields+=("$key=${!key}"); done
}

# relay_post PATH SECONDS: POSTs `fields` (NUL-terminated), an empty field and `payload` to PATH on
# the relay (relay_target first) and reads its whole answer within SECONDS; fd 3 is closed after.
# Sets `status` (the code, once a status line came) and `body`; fails when no complete answer came
# (no status line, no `content-length`, fewer body bytes than it says): a relay that answers only
# part is hung (`status` may then be set: the relay took the request).
# The answer comes in with `read -N`, a few reads of up to 64 KiB: a line-by-line `read` of a
# socket makes one system call per byte, ~600 for the relay's headers (HOOKCOST-1).
relay_post() {
  local length=$(( 1 + ${#payload} )) field answer= chunk head clen
  for field in "${fields[@]}"; do length=$(( length + ${#field} + 1 )); done
  status= body=
  { exec 3<>"/dev/tcp/$address/$port"; } 2>/dev/null || return 1
  # A relay may answer before it has read the whole request — it refuses the credential on the
  # headers alone — and close: a write after that must fail (EPIPE), not kill the hook with
  # SIGPIPE, which left Claude Code with no decision and the report unspooled (FAST-7).
  trap '' PIPE
  {
    printf 'POST %s HTTP/1.1\r\nHost: %s:%s\r\nAuthorization: Bearer %s\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\nConnection: close\r\n\r\n' "$1" "$host" "$port" "$token" "$length"
    (( ${#fields[@]} )) && printf '%s\0' "${fields[@]}"
    printf '\0%s' "$payload"
  } >&3 2>/dev/null || { trap - PIPE; { exec 3>&-; } 2>/dev/null; return 1; }
  trap - PIPE
  # The relay closes the connection after its answer (`Connection: close`): read to the end.
  while IFS= read -r -d '' -N 65536 -t "$2" chunk <&3; do answer+=$chunk; done
  answer+=$chunk
  { exec 3>&-; } 2>/dev/null
  [[ $answer =~ ^HTTP/1\.[01]\ ([0-9]{3}) ]] || return 1
  status=${BASH_REMATCH[1]}
  [[ $answer == *$'\r\n\r\n'* ]] || return 1
  head=${answer%%$'\r\n\r\n'*} body=${answer#*$'\r\n\r\n'}
  [[ ${head,,} =~ $'\n'content-length:\ *([0-9]{1,9})$'\r'?($'\n'|$) ]] || return 1
  clen=${BASH_REMATCH[1]}
  (( ${#body} == 10#$clen )) || return 1
}

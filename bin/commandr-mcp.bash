# `commandr mcp` until the first message it cannot answer (MCP-FAST-1..5).
# Started by bin/commandr as `bash bin/commandr-mcp.bash <bin dir> [<node>]` with the agent's
# stdin and stdout. Agents wait for `initialize` and `tools/list` before their first
# model request, and a Node start is ~200 ms of that wait: this answers them (and
# `notifications/initialized`, `ping`, requests for methods the server does not have,
# such as Claude Code's `server/discover` probe) from dist/mcp-listing.sh, the real
# server's own replies captured at build time. The first other line (a tool call, anything it is
# not sure of) makes it exec the real Node server in its place: same pid, same stdin
# and stdout. `read` takes a pipe byte by byte, so nothing past that line has been
# consumed; the server is handed the `initialize` and `notifications/initialized` it took
# (replayed, answers suppressed) and the pending bytes on fd 3, and reads stdin from there on.
# bash 3.2 compatible (macOS): no associative arrays, no `read -N`.

set -f # no globbing: records are split on newlines, never expanded
bin=$1
node=${2:-node}
dist=$bin/../dist
listing=$dist/mcp-listing.sh

had_lc_all=${LC_ALL+x}
old_lc_all=${LC_ALL-}

# The real server, from the start or in the middle of a session. $1: the bytes pending
# (the line being handled, with its newline when it was read whole).
node_server() {
  if [ -n "$had_lc_all" ]; then LC_ALL=$old_lc_all; else unset LC_ALL; fi
  if [ "$#" -eq 0 ]; then exec "$node" "$bin/commandr" mcp; fi
  # fd 3: the number of lines to replay, those lines, then the pending bytes. A here-string
  # (not the environment: a line can be large) ends with a newline of its own, which the server drops.
  exec 3<<<"$replay_n
$replay$1"
  exec "$node" "$bin/commandr" mcp --replay-fd=3
}

# No listing, or one older than the server (an older build rebuilt dist/): the server from the start.
if [ ! -r "$listing" ] || [ "$listing" -ot "$dist/mcp.cjs" ] || ! . "$listing" || [ "$mcp_listing_ok" != 1 ]; then
  node_server
fi
command -v "$node" >/dev/null 2>&1 || { echo "commandr mcp: $node is not found" >&2; exit 70; }

# Bytes, not characters: the line is parsed byte by byte, whatever the agent's locale.
LC_ALL=C

max_line=16384
replay_n=0
replay=
initialized=

# ---- A JSON reader, as strict as JSON.parse, for one line ---------------------------------
# It records, for every value at depth <= 5, its path (keys joined by \x1f), its kind
# (o object, a array, s string, n number, b true/false, z null) and its raw token, one
# record a line in $recs. Any doubt (escapes in keys, a repeated key, depth > 64) is a
# failure, and a line that fails is the Node server's to handle.
S=$'\x1f'
NL=$'\n'
TAB=$'\t'
re_tok=$'^[ \t\r]*([]{}[,:]|"([^"\\\\[:cntrl:]]|\\\\["\\\\/bfnrt]|\\\\u[0-9a-fA-F]{4})*"|-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?|true|false|null)'
re_ws=$'^[ \t\r]*$'
re_close=$'^[ \t\r]*]'
A=$'\x1e' # in a path: inside an array (not recorded)

WS=$' \t\r'
next_tok() {
  local body
  case $rest in ["$WS"]*) rest=${rest#"${rest%%[!"$WS"]*}"} ;; esac
  # Punctuation and strings without escapes (nearly every token) by pattern; the rest by the regex.
  case $rest in
    [][{}:,]*)
      tok=${rest:0:1}
      rest=${rest:1}
      return 0 ;;
    \"*)
      body=${rest:1}
      body=${body%%\"*}
      case $body in *\\* | *[[:cntrl:]]*) ;; *)
        if [ "${rest:${#body}+1:1}" = '"' ]; then
          tok=\"$body\"
          rest=${rest:${#body}+2}
          return 0
        fi ;;
      esac ;;
  esac
  [[ $rest =~ $re_tok ]] || return 1
  tok=${BASH_REMATCH[1]}
  rest=${rest:${#BASH_REMATCH[0]}}
}

record() { # path kind raw depth
  [ "$4" -gt 5 ] && return 0
  case $1 in *"$A"*) return 0 ;; esac
  case $recs in *"$NL$1$TAB"*) return 1 ;; esac
  recs=$recs$1$TAB$2$3$NL
}

value() { # path depth
  local path=$1 depth=$2 key
  [ "$depth" -gt 64 ] && return 1
  next_tok || return 1
  case $tok in
    '{')
      record "$path" o '' "$depth" || return 1
      next_tok || return 1
      [ "$tok" = '}' ] && return 0
      while :; do
        case $tok in \"*) ;; *) return 1 ;; esac
        key=${tok:1:${#tok}-2}
        case $key in *\\*) [ "$depth" -lt 5 ] && return 1 ;; esac
        next_tok && [ "$tok" = : ] || return 1
        value "$path$S$key" $((depth + 1)) || return 1
        next_tok || return 1
        case $tok in
          ,) next_tok || return 1 ;;
          '}') return 0 ;;
          *) return 1 ;;
        esac
      done ;;
    '[')
      record "$path" a '' "$depth" || return 1
      # Elements are checked but not recorded: nothing the responder answers looks inside an array.
      [[ $rest =~ $re_close ]] && { next_tok; return 0; }
      while :; do
        value "$path$S$A" $((depth + 1)) || return 1
        next_tok || return 1
        case $tok in
          ,) ;;
          ']') return 0 ;;
          *) return 1 ;;
        esac
      done ;;
    \"*) record "$path" s "$tok" "$depth" ;;
    true | false) record "$path" b "$tok" "$depth" ;;
    null) record "$path" z '' "$depth" ;;
    [-0-9]*) record "$path" n "$tok" "$depth" ;;
    *) return 1 ;;
  esac
}

# get PATH: sets $kind and $raw for a recorded path; fails when there is none.
get() {
  # Cut at the record's start, then at its end: patterns anchored on the literal, so linear in $recs.
  local r=${recs%%"$NL$1$TAB"*}
  [ "${#r}" = "${#recs}" ] && { kind= raw= ; return 1; }
  r=${recs:${#r}+${#1}+2}
  r=${r%%"$NL"*}
  kind=${r:0:1}
  raw=${r:1}
}

# only PATH KEY…: the object at PATH has no keys but these (checked on the records).
only() {
  local path=$1 line k ok want
  shift
  local IFS=$NL
  for line in $recs; do
    case $line in "$path$S"*) ;; *) continue ;; esac
    k=${line#"$path$S"}
    k=${k%%"$TAB"*}
    case $k in *"$S"*) continue ;; esac
    ok=
    for want in "$@"; do [ "$k" = "$want" ] && ok=1; done
    [ -n "$ok" ] || return 1
  done
}

# is_object PATH: a JSON object (not an array); object_like PATH: an object or an array (the SDK's "any object").
is_object() { get "$1" && [ "$kind" = o ]; }
object_like() { get "$1" && { [ "$kind" = o ] || [ "$kind" = a ]; }; }
# Every direct child of PATH is object-like (z.record(string, object)).
children_object_like() {
  local line k IFS=$NL
  for line in $recs; do
    case $line in "$1$S"*) ;; *) continue ;; esac
    k=${line#"$1$S"}
    k=${k%%"$TAB"*}
    case $k in *"$S"*) continue ;; esac
    object_like "$1$S$k" || return 1
  done
}
optional_string() { ! get "$1" || [ "$kind" = s ]; }
optional_bool() { ! get "$1" || [ "$kind" = b ]; }

# The initialize params the SDK's InitializeRequestParamsSchema accepts, as far as the
# responder checks them; anything it does not check (icons, tasks, _meta, other keys) is a handover.
initialize_params_ok() {
  local p=${S}params c=${S}params${S}capabilities i=${S}params${S}clientInfo
  is_object "$p" && only "$p" protocolVersion capabilities clientInfo || return 1
  get "$p${S}protocolVersion" && [ "$kind" = s ] && [[ $raw =~ ^\"[[:print:]]*\"$ ]] && [[ $raw != *\\* ]] || return 1
  is_object "$c" && only "$c" experimental sampling elicitation roots extensions || return 1
  if get "$c${S}experimental"; then is_object "$c${S}experimental" && children_object_like "$c${S}experimental" || return 1; fi
  if get "$c${S}extensions"; then is_object "$c${S}extensions" && children_object_like "$c${S}extensions" || return 1; fi
  if get "$c${S}sampling"; then
    is_object "$c${S}sampling" || return 1
    if get "$c${S}sampling${S}context"; then object_like "$c${S}sampling${S}context" || return 1; fi
    if get "$c${S}sampling${S}tools"; then object_like "$c${S}sampling${S}tools" || return 1; fi
  fi
  if get "$c${S}elicitation"; then
    is_object "$c${S}elicitation" || return 1
    if get "$c${S}elicitation${S}form"; then is_object "$c${S}elicitation${S}form" && optional_bool "$c${S}elicitation${S}form${S}applyDefaults" || return 1; fi
    if get "$c${S}elicitation${S}url"; then object_like "$c${S}elicitation${S}url" || return 1; fi
  fi
  if get "$c${S}roots"; then is_object "$c${S}roots" && optional_bool "$c${S}roots${S}listChanged" || return 1; fi
  is_object "$i" && only "$i" name version title websiteUrl description || return 1
  get "$i${S}name" && [ "$kind" = s ] && get "$i${S}version" && [ "$kind" = s ] || return 1
  optional_string "$i${S}title" && optional_string "$i${S}websiteUrl" && optional_string "$i${S}description"
}

# no_params: params absent or {}.
no_params() { ! get "${S}params" || { [ "$kind" = o ] && only "${S}params"; }; }

# answer LINE: answers (or, for the notification, takes) the line; fails when it is not sure.
answer() {
  rest=$1
  recs=$NL
  value '' 0 || return 1
  [[ $rest =~ $re_ws ]] || return 1
  is_object '' && only '' jsonrpc id method params || return 1
  get "${S}jsonrpc" && [ "$raw" = '"2.0"' ] || return 1
  get "${S}method" && [ "$kind" = s ] || return 1
  local method=$raw id= has_id= want
  if get "${S}id"; then
    has_id=1
    id=$raw
    case $kind in
      s) [[ $id =~ ^\"[[:print:]]*\"$ ]] && [[ $id != *\\* ]] || return 1 ;;
      n) [[ $id =~ ^(0|-?[1-9][0-9]{0,14})$ ]] || return 1 ;;
      *) return 1 ;;
    esac
  fi
  case $method in
    '"initialize"')
      [ -n "$has_id" ] && [ -z "$initialized" ] && initialize_params_ok || return 1
      get "${S}params${S}protocolVersion"
      local v=${raw:1:${#raw}-2} n=$mcp_latest k=0 want
      for want in "${mcp_versions[@]}"; do
        [ "$v" = "$want" ] && n=$k
        k=$((k + 1))
      done
      initialized=1
      replay_n=$((replay_n + 1))
      replay=$replay$1$NL
      printf '%s%s%s\n' "${mcp_init_head[$n]}" "$id" "${mcp_init_tail[$n]}" ;;
    '"notifications/initialized"')
      [ -z "$has_id" ] && no_params || return 1
      replay_n=$((replay_n + 1))
      replay=$replay$1$NL ;;
    '"ping"')
      [ -n "$has_id" ] && no_params || return 1
      printf '%s%s%s\n' "$mcp_ping_head" "$id" "$mcp_ping_tail" ;;
    '"tools/list"')
      [ -n "$has_id" ] || return 1
      if get "${S}params"; then
        [ "$kind" = o ] && only "${S}params" cursor && optional_string "${S}params${S}cursor" || return 1
      fi
      printf '%s%s%s\n' "$mcp_list_head" "$id" "$mcp_list_tail" ;;
    *)
      # A request for a method the server has no handler for (Claude Code probes with
      # `server/discover` before `initialize`): the SDK's "Method not found". Only when
      # its _meta asks for nothing (no progress token, no related task).
      [ -n "$has_id" ] && [[ $method =~ ^\"[[:print:]]*\"$ ]] && [[ $method != *\\* ]] || return 1
      for want in "${mcp_handled[@]}"; do [ "$method" = "\"$want\"" ] && return 1; done
      if get "${S}params"; then
        [ "$kind" = o ] || return 1
        if get "${S}params${S}_meta"; then
          [ "$kind" = o ] || return 1
          ! get "${S}params${S}_meta${S}progressToken" && ! get "${S}params${S}_meta${S}io.modelcontextprotocol/related-task" || return 1
        fi
      fi
      printf '%s%s%s\n' "$mcp_notfound_head" "$id" "$mcp_notfound_tail" ;;
  esac
}

while :; do
  line=
  # EOF: the agent is gone. A last line without its newline is not a message (nor is it for the SDK).
  IFS= read -r -n "$max_line" line || exit 0
  # A line this long is not one of the four: the server takes it, from the part already read.
  [ "${#line}" -ge "$max_line" ] && node_server "$line"
  answer "$line" || node_server "$line$NL"
done

# `commandr mcp` (MCP-ONE-1..7): a byte pipe to the MCP server the running relay hosts, else
# that same server in Node here. Started by bin/commandr as `bash bin/commandr-mcp.bash <bin dir>
# [<node>]` with the agent's stdin and stdout. It never reads a JSON-RPC message: it finds the
# relay as the hooks do (relay-client.bash: COMMANDR_URL or a live relay.json, loopback http
# only), opens two connections to it — `down` (relay → stdout) with the session's fields, `up`
# (stdin → relay, never answered) naming the id `down` was given — and then becomes `cat`. No
# relay, a refused or a slow one, a run's own credential (a job keeps its server in its sandbox),
# or a field the pipe cannot carry: the Node server from the start (`node bin/commandr mcp`),
# same tools.

set -f
# A relay that answers before it has read a request (too large a header) and closes makes a later
# write fail: EPIPE, so that the Node server takes over, not SIGPIPE, which would kill the server
# the agent started (FAST-7). The default is given back before anything is exec'd.
trap '' PIPE
bin=$1
node=${2:-node}
had_lc_all=${LC_ALL+x}
old_lc_all=${LC_ALL-}
export LC_ALL=C # byte semantics for the checks below; given back to the Node server

local_server() {
  [[ -n ${1:-} ]] && printf 'commandr mcp: %s; serving the tools here\n' "$1" >&2
  exec 3>&- 4>&-
  trap - PIPE
  if [[ -n $had_lc_all ]]; then LC_ALL=$old_lc_all; else unset LC_ALL; fi
  exec "$node" "$bin/commandr" mcp
}

# MCP-ONE-5: a run's scoped credential is for reporting and asking only; its server stays with it.
[[ -z ${COMMANDR_HOOK_TOKEN:-} ]] || local_server
. "$bin/../adapters/claude/hooks/relay-client.bash" 2>/dev/null || local_server
relay_target || local_server

# The session's fields, one `Commandr-Env: KEY=value` header each (MCP-ONE-3). A value a header
# cannot carry as it is (a line break, surrounding blanks) means the Node server here.
headers=()
for key in PWD AGENTS_TASK_ID COMMANDR_TASK COMMANDR_AGENT_ID GIT_DIR GIT_WORK_TREE; do
  [[ -v $key ]] || continue
  value=${!key}
  [[ $value == *[$'\r\n\t']* || $value == ' '* || $value == *' ' ]] && local_server "$key cannot be sent to the relay"
  headers+=("Commandr-Env: $key=$value")
done

# request ROLE HEADER…: one upgrade request to the pipe.
request() {
  local role=$1 h
  shift
  printf 'GET /api/mcp/pipe HTTP/1.1\r\nHost: %s:%s\r\nAuthorization: Bearer %s\r\nConnection: Upgrade\r\nUpgrade: commandr-mcp\r\nCommandr-Mcp-Role: %s\r\n' "$host" "$port" "$token" "$role"
  for h in "$@"; do printf '%s\r\n' "$h"; done
  printf '\r\n'
}

# answer FD: reads the relay's answer head (byte by byte: nothing past it is consumed); sets
# `session` and `refusal`; fails unless it is `101`.
answer() {
  local line status
  session= refusal=
  IFS= read -r -t 5 line <&"$1" || { refusal='the relay did not answer within 5 s'; return 1; }
  [[ $line =~ ^HTTP/1\.[01]\ ([0-9]{3}) ]] || { refusal='the relay answered something else'; return 1; }
  status=${BASH_REMATCH[1]}
  while IFS= read -r -t 5 line <&"$1"; do
    line=${line%$'\r'}
    [[ -z $line ]] && break
    [[ $line =~ ^Commandr-Mcp-Session:\ ([0-9a-f]{32})$ ]] && session=${BASH_REMATCH[1]}
    [[ $line =~ ^Commandr-Error:\ (.{1,300}) ]] && refusal="the relay refused the pipe: ${BASH_REMATCH[1]}"
  done
  [[ $status == 101 ]] || { refusal=${refusal:-the relay refused the pipe ($status)}; return 1; }
}

{ exec 3<>"/dev/tcp/$address/$port"; } 2>/dev/null || local_server "no relay listens at $host:$port"
request down "${headers[@]}" >&3 2>/dev/null || local_server 'the relay closed the pipe'
answer 3 && [[ -n $session ]] || local_server "$refusal"
{ exec 4<>"/dev/tcp/$address/$port"; } 2>/dev/null || local_server "no relay listens at $host:$port"
# `up` gets no answer (MCP-ONE-3): the relay never writes to it, so its ACKs are not delayed and
# the agent's quick messages are not held back by Nagle. Once `down` is switched, `up` is refused
# only by a relay that is stopping, which closes `down` too: the session ends as in MCP-ONE-4.
request up "Commandr-Mcp-Session: $session" >&4 2>/dev/null || local_server 'the relay closed the pipe'

# Bytes only from here (MCP-ONE-2). Each direction is its own connection held by one process, so
# the agent closing stdin, or killing this pid, closes `up`; the relay then ends the session and
# closes `down`, which ends the child (MCP-ONE-4).
trap - PIPE
if [[ -n $had_lc_all ]]; then LC_ALL=$old_lc_all; else unset LC_ALL; fi
cat <&3 3>&- 4>&- &
exec cat >&4 3>&- 4>&-

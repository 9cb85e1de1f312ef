# Sourced by the bash hooks (`permission-fast`, `report`): one HTTP/1.1 request to the relay on
# this machine over bash's /dev/tcp, with the hook credential, and nothing but builtins (no
# process is started). The caller sets LC_ALL=C (lengths in bytes).

# relay_target: sets `token`, `host`, `port` and `address` from $COMMANDR_HOME/hook-token and the
# relay URL (COMMANDR_URL, else the running relay's relay.json); fails unless the URL is plain http
# on loopback — the credential never leaves this machine this way — and when no relay recorded one:
# a guessed port could be held by another user's process, which would be handed the credential.
relay_target() {
  local home=${COMMANDR_HOME:-${HOME:-/nonexistent}/.commandr} url=${COMMANDR_URL:-} info=
  token=
  { read -r token <"$home/hook-token"; } 2>/dev/null
  [[ $token =~ ^[A-Za-z0-9_-]{32,}$ ]] || return 1
  if [[ -z $url ]]; then
    { read -r info <"$home/relay.json"; } 2>/dev/null
    [[ $info =~ \"url\":\"([^\"]*)\" ]] && url=${BASH_REMATCH[1]}
  fi
  [[ $url =~ ^http://(127\.[0-9]+\.[0-9]+\.[0-9]+|localhost|\[::1\]):([0-9]{1,5})/?$ ]] || return 1
  host=${BASH_REMATCH[1]} port=${BASH_REMATCH[2]}
  address=${host#[} address=${address%]}
}

# relay_fields KEY…: sets `fields` to `KEY=value` for each KEY that is set.
relay_fields() {
  local key
  fields=()
  for key in "$@"; do [[ -v $key ]] && fields+=("$key=${!key}"); done
}

# relay_post PATH SECONDS: POSTs `fields` (NUL-terminated), an empty field and `payload` to PATH on
# the relay (relay_target first) and reads the status line within SECONDS. Sets `status` (the
# code) and leaves fd 3 open for the caller to read the rest; fails when no status line came.
relay_post() {
  local length=$(( 1 + ${#payload} )) field line
  for field in "${fields[@]}"; do length=$(( length + ${#field} + 1 )); done
  { exec 3<>"/dev/tcp/$address/$port"; } 2>/dev/null || return 1
  {
    printf 'POST %s HTTP/1.1\r\nHost: %s:%s\r\nAuthorization: Bearer %s\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\nConnection: close\r\n\r\n' "$1" "$host" "$port" "$token" "$length"
    (( ${#fields[@]} )) && printf '%s\0' "${fields[@]}"
    printf '\0%s' "$payload"
  } >&3 2>/dev/null || return 1
  IFS= read -r -t "$2" line <&3 || return 1
  [[ $line =~ ^HTTP/1\.[01]\ ([0-9]{3}) ]] || return 1
  status=${BASH_REMATCH[1]}
}

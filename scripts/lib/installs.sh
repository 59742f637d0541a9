# Sourced by the install scripts (bootstrap.sh, fuzz-venv.sh, fx-history.sh, receipts-venv.sh, chart-check.sh):
# the two ways this project installs what a fresh machine lacks, written once. The sourcing script defines
# `say` (its own prefix) first.

# Runs a command as root: directly when we are root, else through sudo.
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    say "need root for: $*"
    exit 1
  fi
}

# apt_install PACKAGE...: installs Debian packages quietly (no recommends unless the caller adds them).
apt_install() {
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# pinned_venv DIR [PIP_FLAG...] -- REQUIREMENT...: a Python virtualenv holding exactly these pinned
# requirements. A present one (its .stamp names the same requirements) is left alone without network;
# otherwise it is rebuilt from PyPI. Sets PINNED_VENV_BUILT to 1 when it built, 0 when it was present.
pinned_venv() {
  local dir="$1"
  shift
  local flags=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    flags+=("$1")
    shift
  done
  shift
  local requirements=("$@")
  if [ -x "$dir/bin/python" ] && [ "$(cat "$dir/.stamp" 2>/dev/null)" = "${requirements[*]}" ]; then
    PINNED_VENV_BUILT=0
    return 0
  fi
  local name="${dir#"$ROOT"/}"
  command -v python3 >/dev/null || { say "python3 is required for $name"; exit 1; }
  say "installing ${requirements[*]} into $name (pip)"
  rm -rf "$dir"
  python3 -m venv "$dir" || { say "python3 -m venv failed (Debian: apt-get install python3-venv)"; exit 1; }
  "$dir/bin/pip" install --quiet --disable-pip-version-check ${flags[@]+"${flags[@]}"} "${requirements[@]}" \
    || { say "pip install into $name failed"; exit 1; }
  echo "${requirements[*]}" >"$dir/.stamp"
  PINNED_VENV_BUILT=1
}

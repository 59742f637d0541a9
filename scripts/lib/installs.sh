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

# pinned_go_tool BIN PACKAGE VERSION: `go install PACKAGE@VERSION` into .tools/bin/BIN, unless the binary there
# was built from that module version already (its build info says so: no network then). PACKAGE is the
# command's package path; its module is the part go reports as `mod`.
pinned_go_tool() {
  local bin="$1" package="$2" version="$3"
  local path="$ROOT/.tools/bin/$bin"
  if [ -x "$path" ] && [ "$(go version -m "$path" 2>/dev/null | awk '$1 == "mod" { print $3 }')" = "$version" ]; then
    return 0
  fi
  command -v go >/dev/null || { say "Go is required to install $bin (go install $package@$version)"; exit 1; }
  say "installing $bin $version into .tools/bin (go install)"
  mkdir -p "$ROOT/.tools/bin"
  if ! GOBIN="$ROOT/.tools/bin" go install "$package@$version" >"$ROOT/.tools/$bin-install.log" 2>&1; then
    tail -30 "$ROOT/.tools/$bin-install.log" >&2
    say "go install $package@$version failed (full log: .tools/$bin-install.log)"
    exit 1
  fi
}

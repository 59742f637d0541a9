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

# The machine's cache of what these scripts build (docs/decisions/0237): a clone on a machine that built the
# same pinned tool before (another checkout, CI's fresh clone) takes it from here instead of building it again.
# Keys name everything the build depends on, so an entry is never stale. TRAVEL_TOOLS_CACHE=off: no cache.
TOOLS_CACHE="${TRAVEL_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/travel-expense-tools}"
tools_cache_on() {
  [ "$TOOLS_CACHE" != off ] && command -v flock >/dev/null && mkdir -p "$TOOLS_CACHE" 2>/dev/null && [ -w "$TOOLS_CACHE" ]
}

# cached_file PATH KEY BUILD_CMD...: PATH (a file or a directory) from the cache entry KEY when there is one,
# else built by BUILD_CMD and then copied into the cache. One builder per entry at a time (flock).
cached_file() {
  local path="$1" key="$2"
  shift 2
  if ! tools_cache_on; then
    "$@"
    return
  fi
  local entry="$TOOLS_CACHE/files/$key"
  mkdir -p "$TOOLS_CACHE/files"
  (
    flock 9
    if [ -e "$entry/.complete" ]; then
      rm -rf "$path"
      cp -a "$entry/item" "$path"
    else
      "$@"
      rm -rf "$entry"
      mkdir -p "$entry"
      cp -a "$path" "$entry/item"
      touch "$entry/.complete"
    fi
  ) 9>"$TOOLS_CACHE/files/$key.lock" || exit 1
}

# pinned_venv DIR [PIP_FLAG...] -- REQUIREMENT...: a Python virtualenv holding exactly these pinned
# requirements. A present one (its .stamp names the same requirements) is left alone without network;
# otherwise DIR becomes a link to the machine's cached venv of the same requirements, or it is built from PyPI
# (into the cache, as a venv cannot be moved). Sets PINNED_VENV_BUILT to 1 when it built or linked, 0 when it
# was present.
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
  rm -rf "$dir"
  PINNED_VENV_BUILT=1
  if ! tools_cache_on; then
    say "installing ${requirements[*]} into $name (pip)"
    build_venv "$dir" "$name"
    return 0
  fi
  local key
  key="$(printf '%s\n' "$(python3 --version)" "${flags[*]-}" "${requirements[*]}" | sha256sum | cut -c1-16)"
  local cached="$TOOLS_CACHE/venvs/$(basename "$dir")-$key"
  mkdir -p "$TOOLS_CACHE/venvs"
  (
    flock 9
    if [ -x "$cached/bin/python" ] && [ "$(cat "$cached/.stamp" 2>/dev/null)" = "${requirements[*]}" ]; then
      say "$name: ${requirements[*]} from the machine's tool cache"
    else
      say "installing ${requirements[*]} into $name (pip, kept in the machine's tool cache)"
      rm -rf "$cached"
      build_venv "$cached" "$name"
    fi
  ) 9>"$cached.lock" || exit 1
  ln -s "$cached" "$dir"
}

# build_venv DIR NAME: a new virtualenv in DIR with the calling pinned_venv's `requirements` and pip `flags`;
# its .stamp, written last, says it is complete.
build_venv() {
  local dir="$1" name="$2"
  python3 -m venv "$dir" || { say "python3 -m venv failed (Debian: apt-get install python3-venv)"; exit 1; }
  "$dir/bin/pip" install --quiet --disable-pip-version-check ${flags[@]+"${flags[@]}"} "${requirements[@]}" \
    || { rm -rf "$dir"; say "pip install into $name failed"; exit 1; }
  echo "${requirements[*]}" >"$dir/.stamp"
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
  say "installing $bin $version into .tools/bin (go install, or the machine's tool cache)"
  mkdir -p "$ROOT/.tools/bin"
  cached_file "$path" "$bin-$version-$(go env GOOS GOARCH GOVERSION | tr '\n' '-')" go_install "$bin" "$package@$version"
}

go_install() {
  local bin="$1" module="$2"
  if ! GOBIN="$ROOT/.tools/bin" go install "$module" >"$ROOT/.tools/$bin-install.log" 2>&1; then
    tail -30 "$ROOT/.tools/$bin-install.log" >&2
    say "go install $module failed (full log: .tools/$bin-install.log)"
    exit 1
  fi
}

#!/usr/bin/env bash
# Fetch the pinned benchmark corpora into a cache folder and print "name<TAB>path" for each corpus.
#   usage: benches/fetch-corpora.sh [--dir DIR] [rxjs] [ts] [k8s] [x-tools] [django] [linux]
#          (default: all but linux, which is asked for by name; DIR default ${GORTEX_CORPORA:-~/.cache/gortex-corpora})
# Every source is a package registry reached through its ordinary client, and every download is
# checked against a pinned digest (a mismatch stops the script):
#   rxjs     npm: rxjs@7.8.2, src/                                  -> rxjs
#   ts       Debian source node-typescript (TypeScript 4.8.4)       -> ts-src (src/), ts-full (whole tree, ~18k .ts)
#   k8s      Debian source kubernetes (1.20.2), vendor/ removed    -> k8s (~8.6k .go)
#   x-tools  Go proxy: golang.org/x/tools@v0.28.0 (go mod download) -> x-tools
#   django   PyPI: Django==5.1.4 sdist (pip download)               -> django
#   linux    Debian source linux (6.1.176, 138 MB .tar.xz)          -> linux (~55k .c/.h, 1.5 GB unpacked)
# Debian sources come through a private deb-src list so the system's apt configuration is untouched.
set -euo pipefail
dir=${GORTEX_CORPORA:-$HOME/.cache/gortex-corpora}
want=()
while [ $# -gt 0 ]; do
  case $1 in
    --dir) dir=$2; shift 2 ;;
    rxjs|ts|k8s|x-tools|django|linux) want+=("$1"); shift ;;
    *) echo "usage: fetch-corpora.sh [--dir DIR] [rxjs] [ts] [k8s] [x-tools] [django] [linux]" >&2; exit 2 ;;
  esac
done
[ ${#want[@]} -gt 0 ] || want=(rxjs ts k8s x-tools django)
mkdir -p "$dir/pkgs" "$dir/apt/lists/partial"
log() { echo "fetch-corpora: $*" >&2; }
check_sha256() {
  local file=$1 sha=$2 got
  got=$(sha256sum "$file" | cut -d' ' -f1)
  [ "$got" = "$sha" ] || { log "$(basename "$file") has sha256 $got, expected $sha: the corpus changed"; exit 1; }
}

apt_src=(-o Dir::Etc::SourceList="$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
         -o Dir::State::Lists="$dir/apt/lists")
echo 'deb-src http://deb.debian.org/debian bookworm main' > "$dir/apt/sources.list"

# debian_orig PACKAGE ORIG_TARBALL SHA256: download a Debian source package, verify its upstream tarball.
debian_orig() {
  local pkg=$1 orig=$2 sha=$3
  if [ ! -f "$dir/pkgs/$orig" ]; then
    [ -f "$dir/apt/lists/.updated" ] || { apt-get "${apt_src[@]}" update -qq >&2 && touch "$dir/apt/lists/.updated"; }
    (cd "$dir/pkgs" && apt-get "${apt_src[@]}" source --download-only "$pkg" >&2)
  fi
  check_sha256 "$dir/pkgs/$orig" "$sha"
}

for c in "${want[@]}"; do
  case $c in
    rxjs)
      out=$dir/rxjs-7.8.2
      if [ ! -d "$out/src" ]; then
        log "npm pack rxjs@7.8.2"
        (cd "$dir/pkgs" && npm pack rxjs@7.8.2 >/dev/null 2>&1)
        check_sha256 "$dir/pkgs/rxjs-7.8.2.tgz" 2312f8ffd9726ffd7bd53ea12c5f13663d09a3dc3326f448c70b88f5ef6fac82
        mkdir -p "$out" && tar -xzf "$dir/pkgs/rxjs-7.8.2.tgz" -C "$out" --strip-components=1
      fi
      printf 'rxjs\t%s\n' "$out/src" ;;
    ts)
      out=$dir/TypeScript-4.8.4
      if [ ! -d "$out/src" ]; then
        log "Debian source node-typescript (TypeScript 4.8.4)"
        debian_orig node-typescript node-typescript_4.8.4+ds1.orig.tar.xz \
          f7917171a6132ab74404e9928d25ec3d07c9398fc0e9b5df1000c5c28b26653f
        tar -xJf "$dir/pkgs/node-typescript_4.8.4+ds1.orig.tar.xz" -C "$dir"
      fi
      printf 'ts-src\t%s\n' "$out/src"
      printf 'ts-full\t%s\n' "$out" ;;
    k8s)
      out=$dir/kubernetes-1.20.2-novendor
      if [ ! -d "$out" ]; then
        log "Debian source kubernetes (1.20.2)"
        debian_orig kubernetes kubernetes_1.20.5+really1.20.2.orig.tar.gz \
          b83c0780efb182d928dc63d46488a847f161f04e40a94b96bf5247dd671ecdfc
        rm -rf "$dir/kubernetes-1.20.2" "$out.tmp" && mkdir -p "$out.tmp"
        tar -xzf "$dir/pkgs/kubernetes_1.20.5+really1.20.2.orig.tar.gz" -C "$dir"
        (cd "$dir/kubernetes-1.20.2" && tar --exclude=vendor -cf - .) | tar -xf - -C "$out.tmp"
        mv "$out.tmp" "$out" && rm -rf "$dir/kubernetes-1.20.2"
      fi
      printf 'k8s\t%s\n' "$out" ;;
    linux)
      out=$dir/linux-6.1.176
      if [ ! -d "$out" ]; then
        log "Debian source linux (6.1.176)"
        debian_orig linux linux_6.1.176.orig.tar.xz \
          9aad4025973feea3f0d978e82ab7db97d8d5ce3f59fcc6b1f316153d66e3a504
        rm -rf "$out.tmp" && mkdir -p "$out.tmp"
        tar -xJf "$dir/pkgs/linux_6.1.176.orig.tar.xz" -C "$out.tmp" --strip-components=1
        mv "$out.tmp" "$out"
      fi
      printf 'linux\t%s\n' "$out" ;;
    x-tools)
      version=v0.28.0
      out=$dir/x-tools-$version
      if [ ! -d "$out" ]; then
        log "go mod download golang.org/x/tools@$version"
        # The module's h1: hash is pinned here and checked below, so the checksum database is not needed.
        json=$(cd "$dir/pkgs" && GOFLAGS=-mod=mod GOSUMDB=off GO111MODULE=on go mod download -json "golang.org/x/tools@$version")
        sum=$(printf '%s' "$json" | sed -n 's/.*"Sum": "\(.*\)".*/\1/p')
        [ "$sum" = "h1:WuB6qZ4RPCQo5aP3WdKZS7i595EdWqWR8vqJTlwTVK8=" ] || { log "x/tools $version has sum $sum: the corpus changed"; exit 1; }
        src=$(printf '%s' "$json" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
        rm -rf "$out.tmp" && cp -r "$src" "$out.tmp" && chmod -R u+w "$out.tmp" && mv "$out.tmp" "$out"
      fi
      printf 'x-tools\t%s\n' "$out" ;;
    django)
      out=$dir/Django-5.1.4
      if [ ! -d "$out" ]; then
        log "pip download Django==5.1.4 (sdist)"
        [ -f "$dir/pkgs/Django-5.1.4.tar.gz" ] ||
          (cd "$dir/pkgs" && python3 -m pip download --no-deps --no-binary :all: Django==5.1.4 -d . >&2)
        check_sha256 "$dir/pkgs/Django-5.1.4.tar.gz" de450c09e91879fa5a307f696e57c851955c910a438a35e6b4c895e86bedc82a
        tar -xzf "$dir/pkgs/Django-5.1.4.tar.gz" -C "$dir"
      fi
      printf 'django\t%s\n' "$out" ;;
  esac
done

#!/usr/bin/env bash
# Turns a staged `make install DESTDIR=ROOT PREFIX=/usr` tree into a Debian package with dpkg-deb (`make deb`):
# the binaries stripped as dh_strip does (120 MB → 72 MB for workspaced; the unit turns Swift's backtracer off
# anyway), DEBIAN/control from packaging/deb/control.in, the maintainer scripts and the debconf config and
# templates of packaging/deb, every file under etc/ as a conffile, md5sums, and Depends computed by dpkg-shlibdeps
# from what the binaries link (plus debconf, which postrm asks with). Fails when a
# binary links a library no Debian package provides (a Swift runtime under /opt/swift, for instance).
#
#   Scripts/build-deb.sh ROOT VERSION ARCH OUTPUT.deb
#
# Environment: DEB_MAINTAINER (the control file's Maintainer), DEB_COMPRESSION (dpkg-deb -Z, default xz),
# DEB_COMPRESSION_LEVEL (dpkg-deb -z, default dpkg-deb's own).
set -euo pipefail

stage=$1
version=$2
arch=$3
output=$4
here=$(cd "$(dirname "$0")/.." && pwd)
maintainer=${DEB_MAINTAINER:-workspaced maintainers <root@localhost>}
compression=${DEB_COMPRESSION:-xz}

for tool in dpkg-deb dpkg-shlibdeps strip; do
    command -v "$tool" >/dev/null ||
        { echo "build-deb: $tool is missing (make deps installs dpkg-dev and binutils)" >&2; exit 1; }
done

# The Swift runtime must not come from outside the package system: `make release` links it statically.
for binary in "$stage/usr/bin/workspaced" "$stage/usr/bin/workspacectl"; do
    if foreign=$(ldd "$binary" | grep -E '=> /opt/|not found'); then
        echo "build-deb: $binary links libraries no Debian package provides:" >&2
        echo "$foreign" >&2
        exit 1
    fi
done

for binary in "$stage/usr/bin/workspaced" "$stage/usr/bin/workspacectl"; do
    strip --remove-section=.comment --remove-section=.note "$binary"
done

# dpkg-shlibdeps reads the binary package's name from debian/control in its working directory.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debian"
printf 'Source: workspaced\n\nPackage: workspaced\nArchitecture: any\n' >"$work/debian/control"
depends=$(cd "$work" &&
    dpkg-shlibdeps -O -e"$stage/usr/bin/workspaced" -e"$stage/usr/bin/workspacectl" 2>"$work/shlibdeps.log") ||
    { cat "$work/shlibdeps.log" >&2; exit 1; }
depends=${depends#shlibs:Depends=}
[ -n "$depends" ] ||
    { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; cat "$work/shlibdeps.log" >&2; exit 1; }

mkdir -p "$stage/DEBIAN"
# The scripts know their own package's version (prerm tells a downgrade from an upgrade with it).
for script in preinst postinst prerm postrm config; do
    sed "s|@VERSION@|$version|g" "$here/packaging/deb/$script" >"$stage/DEBIAN/$script"
    chmod 0755 "$stage/DEBIAN/$script"
done
# debconf's templates (postrm purge asks workspaced/purge-state); the control file's Depends names debconf.
install -m 0644 "$here/packaging/deb/templates" "$stage/DEBIAN/templates"
(cd "$stage" && find etc -type f | sort | sed 's|^|/|') >"$stage/DEBIAN/conffiles"
chmod 0644 "$stage/DEBIAN/conffiles"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@INSTALLED_SIZE@|$size|" -e "s|@DEPENDS@|$depends|" "$here/packaging/deb/control.in" >"$stage/DEBIAN/control"
chmod 0644 "$stage/DEBIAN/control"
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | sort | xargs -d '\n' md5sum) \
    >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/md5sums"

level=()
[ -n "${DEB_COMPRESSION_LEVEL:-}" ] && level=(-z"$DEB_COMPRESSION_LEVEL")
mkdir -p "$(dirname "$output")"
dpkg-deb --root-owner-group -Z"$compression" "${level[@]}" --build "$stage" "$output" >/dev/null
echo "$output"

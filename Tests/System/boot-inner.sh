#!/bin/bash
# Runs as PID 1 of fresh pid/mount/cgroup/uts/ipc namespaces (started by systemtest.py through
# `unshare --pid --fork --kill-child --mount --cgroup --uts --ipc --propagation private`), builds a throw-away
# root and execs systemd in it.
#
# The root is an overlay with lowerdir=/ and its upper and work directories on a tmpfs: never the host root
# read-write, because systemd's tmpfiles set-up would wipe the host's /tmp. Everything mounted here lives only in
# this mount namespace and disappears with it.
#
# Usage: boot-inner.sh BASE NAME     (BASE: an empty directory of the caller's own; NAME: container name)
set -euo pipefail
base=$1
name=$2

mount -t tmpfs -o mode=0755,size=1g "workspaced-systemtest" "$base"
mkdir -p "$base/upper" "$base/work" "$base/root"
mount -t overlay overlay -o "lowerdir=/,upperdir=$base/upper,workdir=$base/work" "$base/root"
root=$base/root

# Kernel file systems: a fresh proc (sysctls read-only), sysfs read-only, a delegated cgroup2 tree.
mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
mount --bind "$root/proc/sys" "$root/proc/sys"
mount -o remount,bind,ro "$root/proc/sys"
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$root/sys"
mount -t cgroup2 -o nsdelegate,nosuid,nodev,noexec cgroup2 "$root/sys/fs/cgroup"

# A small /dev with only the nodes a container needs.
mount -t tmpfs -o mode=0755,nosuid,size=4m tmpfs "$root/dev"
for node in null zero full random urandom tty; do
    touch "$root/dev/$node"
    mount --bind "/dev/$node" "$root/dev/$node"
done
mkdir -p "$root/dev/pts" "$root/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$root/dev/pts"
ln -s pts/ptmx "$root/dev/ptmx"
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/dev/shm"
touch "$root/dev/console"
mount --bind /dev/null "$root/dev/console"
ln -s /proc/self/fd "$root/dev/fd"
ln -s /proc/self/fd/0 "$root/dev/stdin"
ln -s /proc/self/fd/1 "$root/dev/stdout"
ln -s /proc/self/fd/2 "$root/dev/stderr"

mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs "$root/run"
mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/tmp"

# A minimal default target, and masks for what cannot work (or must not run) in a container.
units=$root/run/systemd/system
mkdir -p "$units"
cat > "$units/workspaced-systemtest.target" <<'UNIT'
[Unit]
Description=workspaced system test
Requires=sysinit.target sockets.target
After=sysinit.target sockets.target
AllowIsolate=yes
UNIT
for unit in systemd-sysctl.service systemd-binfmt.service proc-sys-fs-binfmt_misc.automount \
    proc-sys-fs-binfmt_misc.mount systemd-modules-load.service systemd-remount-fs.service \
    systemd-sysusers.service systemd-firstboot.service sys-kernel-debug.mount sys-kernel-tracing.mount \
    sys-fs-fuse-connections.mount sys-kernel-config.mount dev-hugepages.mount dev-mqueue.mount \
    systemd-udevd.service systemd-udev-trigger.service systemd-udev-settle.service \
    systemd-hwdb-update.service systemd-journal-catalog-update.service systemd-machine-id-commit.service \
    getty.target console-getty.service; do
    ln -sf /dev/null "$units/$unit"
done
# A fresh machine id for this boot, so the journal files are this boot's own.
: > "$root/etc/machine-id"

cd "$root"
mkdir -p .oldroot
pivot_root . .oldroot
cd /
umount -l /.oldroot
rmdir /.oldroot
# Shared propagation inside this namespace (its peer groups are new: nothing reaches the host). systemd makes
# / rshared itself only when it is not in a container, and a container manager is expected to do it. Without it
# the credentials file system that systemd mounts on /run/credentials/UNIT from its private helper namespace
# ((sd-mkdcreds), MS_MOVE) never appears in PID 1's namespace: the unit would get an empty root-owned 0700
# directory instead, unreadable to DynamicUser=/User= units.
mount --make-rshared /
exec env -i container="$name" PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /lib/systemd/systemd --unit=workspaced-systemtest.target

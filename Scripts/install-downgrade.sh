#!/bin/sh
# `make install` over a newer installed release: what the Debian prerm does for a package downgrade, for an
# installation from source. Run before the files are replaced (`before`) and after (`after`).
#
#   Scripts/install-downgrade.sh before INSTALLED_BINARY TREE_VERSION
#   Scripts/install-downgrade.sh after
#
# before: when INSTALLED_BINARY is newer than TREE_VERSION (its --version, compared as dpkg compares versions),
# asks it whether TREE_VERSION reads an older schema (`migrate --for-release TREE_VERSION --needed`). If so,
# stops workspaced.socket and workspaced.service (noting which ran) and writes the state down; if that cannot be
# done, exits 1 with the reason before anything changed, and `make install` stops there. Nothing when the
# binary is missing, not newer, or the versions cannot be compared.
# after: starts again the units `before` stopped.
set -eu

note=/run/workspaced.install-restart

case "$1" in
    before)
        binary=$2
        tree=$3
        [ -x "$binary" ] || exit 0
        command -v dpkg >/dev/null || exit 0
        installed=$("$binary" --version 2>/dev/null) || exit 0
        dpkg --compare-versions "$tree" lt "$installed" 2>/dev/null || exit 0
        needed=0
        report=$("$binary" migrate --for-release "$tree" --needed 2>&1) || needed=$?
        case "$needed" in
            0) ;;
            1) exit 0 ;;
            *)
                echo "install: refusing to install $tree over $installed: $report" >&2
                echo "install: nothing was changed. To go back anyway, stop workspaced, restore a backup that" \
                    "$tree reads (workspaced backups --restore NAME) and run make install again." >&2
                exit 1
                ;;
        esac
        echo "install: $installed is installed and $tree is older: $report"
        stopped=""
        if [ -d /run/systemd/system ]; then
            for unit in workspaced.socket workspaced.service; do
                if systemctl is-active --quiet "$unit"; then stopped="$stopped $unit"; fi
            done
            systemctl stop workspaced.socket workspaced.service
        fi
        if ! "$binary" migrate --for-release "$tree"; then
            echo "install: the state could not be written down for $tree; nothing installed" >&2
            if [ -n "$stopped" ]; then systemctl start $stopped || true; fi
            exit 1
        fi
        if [ -n "$stopped" ]; then echo "$stopped" >"$note"; fi
        ;;
    after)
        [ -e "$note" ] || exit 0
        units=$(cat "$note")
        rm -f "$note"
        if [ -d /run/systemd/system ] && [ -n "$units" ]; then systemctl start $units; fi
        ;;
esac

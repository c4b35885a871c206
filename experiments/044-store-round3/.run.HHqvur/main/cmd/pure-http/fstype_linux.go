package main

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// fsType names the file system holding path, from statfs's magic number:
// durable writes on tmpfs would measure nothing.
func fsType(path string) string {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return "unknown"
	}
	switch st.Type {
	case unix.EXT4_SUPER_MAGIC: // also ext2 and ext3
		return "ext4"
	case unix.XFS_SUPER_MAGIC:
		return "xfs"
	case unix.BTRFS_SUPER_MAGIC:
		return "btrfs"
	case unix.TMPFS_MAGIC:
		return "tmpfs"
	case unix.OVERLAYFS_SUPER_MAGIC:
		return "overlayfs"
	case unix.F2FS_SUPER_MAGIC:
		return "f2fs"
	}
	return fmt.Sprintf("0x%x", st.Type)
}

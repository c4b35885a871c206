package main

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// fsType names the file system holding path, from statfs's magic number.
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
	case unix.NFS_SUPER_MAGIC:
		return "nfs"
	case unix.FUSE_SUPER_MAGIC:
		return "fuse"
	}
	return fmt.Sprintf("0x%x", st.Type)
}

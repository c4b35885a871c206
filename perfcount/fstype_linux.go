package perfcount

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// FSType names the file system that holds path, from statfs's magic
// number: "ext4" (also ext2 and ext3), "xfs", "btrfs", "tmpfs",
// "overlayfs", "f2fs", "nfs" or "fuse"; another file system as its magic
// number in hex; "unknown" when statfs fails (or off Linux). A durable
// write's cost belongs to its file system: on tmpfs a sync measures
// nothing, so the durable benchmarks record it beside their results.
func FSType(path string) string {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return "unknown"
	}
	switch st.Type {
	case unix.EXT4_SUPER_MAGIC:
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

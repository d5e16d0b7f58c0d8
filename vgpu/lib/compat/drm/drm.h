/* compat/drm/drm.h - what <linux/kfd_ioctl.h> needs from <drm/drm.h>.
 * Debian's linux-libc-dev ships kfd_ioctl.h, which includes <drm/drm.h>
 * only for the __u32/__u64 types and the _IOR/_IOW/_IOWR macros; the
 * real header belongs to libdrm-dev, not installed here. */
#pragma once
#include <linux/ioctl.h>
#include <linux/types.h>

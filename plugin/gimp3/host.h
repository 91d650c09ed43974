/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host.h — the plug-in core's host for GIMP 3: the CoreHost table filled
 * with libgimp 3.0's calls.
 *
 * The core's drawables, images and files are GIMP 3's own objects here: a
 * gpointer is a GimpDrawable * (or GimpImage *), owned by libgimp as every
 * GimpItem a plug-in receives; no reference is taken or given.
 *
 *   const CoreHost *host = gimp3_host ();
 *   CoreTarget target = core_target (drawable);
 *   core_histogram (host, engine, &target, NULL, &hist, &progress, &error);
 */
#ifndef GH_GIMP3_HOST_H
#define GH_GIMP3_HOST_H

#include <libgimp/gimp.h>

#include "core/host.h"

const CoreHost *gimp3_host (void);

#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* host.h — the core's CoreHost for GIMP 2.10: drawables are gint32 IDs.
 *
 * Every call the core makes into GIMP, with libgimp 2.0's API; a drawable
 * or image handle is its ID packed with GINT_TO_POINTER (GIMP's IDs start
 * at 1, so NULL is never one):
 *
 *   CoreTarget target = core_target (GIMP2_HANDLE (drawable_id));
 *   core_histogram (&gimp2_host, engine, &target, NULL, &hist, NULL, &error);
 */
#ifndef GH_GIMP2_HOST_H
#define GH_GIMP2_HOST_H

#include <libgimp/gimp.h>

/* The core's header of the same name as this one. */
#include "core/host.h"

#define GIMP2_HANDLE(id) GINT_TO_POINTER (id)

extern const CoreHost gimp2_host;

/* The PDB status of a failed call's error (core/errors.h decides). */
GimpPDBStatusType gimp2_pdb_status (const GError *error);

#endif

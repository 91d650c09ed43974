/* SPDX-License-Identifier: GPL-3.0-or-later */
/* op_kind.c — the checks every gh_op preparation makes (op_kind.h). */
#include "op_kind.h"

#include "fail.h"

gh_status
gh_op_check_kind (gh_layout layout, gh_sample sample, gh_luminance luminance,
                  gh_error *error)
{
  if (layout < GH_LAYOUT_GRAY || layout > GH_LAYOUT_RGBA)
    return gh_fail (error, GH_ERR_INVALID, "unknown layout %d",
                    (int) layout);
  if (sample != GH_SAMPLE_U8 && sample != GH_SAMPLE_F32)
    return gh_fail (error, GH_ERR_INVALID, "unknown sample type %d",
                    (int) sample);
  if (luminance != GH_LUMINANCE_PERCEPTUAL
      && luminance != GH_LUMINANCE_LINEAR)
    return gh_fail (error, GH_ERR_INVALID, "unknown luminance rule %d",
                    (int) luminance);
  return GH_OK;
}

gh_status
gh_op_check_mode (const char *what, gh_equalize_mode mode, gh_error *error)
{
  if (mode != GH_EQUALIZE_CHANNELS && mode != GH_EQUALIZE_LUMINANCE)
    return gh_fail (error, GH_ERR_INVALID,
                    "%s mode %d is not 0 (each channel) or 1 (luminance)",
                    what, (int) mode);
  return GH_OK;
}

gh_status
gh_op_check_bins (const char *which, int bins, gh_sample sample,
                  gh_error *error)
{
  if (sample == GH_SAMPLE_U8 ? bins != 256 : bins < 2 || bins > 65536)
    return gh_fail (error, GH_ERR_INVALID,
                    "a %shistogram of %d bins does not fit %s samples",
                    which, bins, sample == GH_SAMPLE_U8 ? "8-bit" : "float");
  return GH_OK;
}

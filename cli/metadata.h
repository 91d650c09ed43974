/* SPDX-License-Identifier: GPL-3.0-or-later */
/* metadata.h — a photo's EXIF, XMP and IPTC carried from an input into
 * the files written from it, through gexiv2 (GIMP's own metadata
 * library), where the build has it (GH_HAVE_GEXIV2).  A file is read once
 * an input, when the first output is opened; each output is written by
 * its encoder under a temporary name, then the metadata is written into
 * that temporary (gexiv2 rewrites it), then it is renamed into place
 * (io/whole.h): a file never appears without its metadata.
 *
 * What is kept: every EXIF, XMP and IPTC tag and the comment, as GIMP's
 * export keeps them, less the EXIF thumbnail (a picture of the input
 * before the operation).  The pixels stay as stored, and so does the
 * orientation tag, unless written upright (--auto-orient): then the tag
 * is 1 and, when turned by a quarter, the pixel dimensions swapped.
 *
 *   cli_metadata *m = cli_metadata_read ("photo.jpg");  -- NULL: none
 *   int o = cli_metadata_orientation (m);                -- 1..8
 *   if (cli_metadata_write (m, temp, "out.png", upright)) ... -- said
 *   cli_metadata_free (m);
 *
 * Metadata that cannot be read (a damaged EXIF block) is said on
 * stderr (streams.h) and the image is written without what was lost.
 * Exiv2 is called by one thread at a time.
 */
#ifndef CLI_METADATA_H
#define CLI_METADATA_H

typedef struct cli_metadata cli_metadata;

/* `path`'s metadata, or NULL where it has none or none can be read. */
cli_metadata *cli_metadata_read (const char *path);
/* The EXIF orientation (else XMP's), 1..8; 1 for NULL or none. */
int cli_metadata_orientation (const cli_metadata *m);
/* `m` written into the file `temp` (in the format of its contents),
 * which becomes `path`; `upright`: its pixels were turned by `m`'s
 * orientation.  0, or -1 (said). */
int cli_metadata_write (cli_metadata *m, const char *temp, const char *path,
                        int upright);
void cli_metadata_free (cli_metadata *m);

#endif

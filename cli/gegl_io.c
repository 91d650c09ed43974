/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gegl_io.c — the CLI's images through GEGL's loaders and savers
 * (gegl_io.h). */
#include "gegl_io.h"
#include "streams.h"

#include <errno.h>
#include <gegl-plugin.h> /* gegl_operation_handlers_get_loader / _saver */
#include <gegl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct cli_gegl_image
{
  GeglBuffer *buffer;
  const Babl *rows;   /* the format read: the engine's layout and sample */
  const Babl *stored; /* the loaded buffer's own */
  int bits;           /* per stored sample */
};

struct cli_gegl_output
{
  GeglBuffer *buffer;
  const Babl *rows;
  const char *saver;
  int gray, bits, quality;
  char *temp;
};

/* Where GLib's messages are counted while this thread loads a file
 * (cli_gegl_open); NULL when not loading. */
static _Thread_local int *warnings_seen;

/* GLib's default log handler, counting the warnings and errors of a load:
 * GEGL's loaders report a file they could not read only that way (then
 * give a blank image of the header's size).  On a worker thread the
 * message goes into that file's messages (streams.h). */
static void
log_message (const gchar *domain, GLogLevelFlags level,
             const gchar *message, gpointer data)
{
  int bad = level & (G_LOG_LEVEL_WARNING | G_LOG_LEVEL_CRITICAL
                     | G_LOG_LEVEL_ERROR);

  if (warnings_seen && bad)
    ++*warnings_seen;
  if (cli_err () == stderr)
    g_log_default_handler (domain, level, message, data);
  else if (bad || (level & G_LOG_LEVEL_MESSAGE))
    fprintf (cli_err (), "%s%s%s\n", domain ? domain : "",
             domain ? ": " : "", message);
}

static void
init_gegl (void)
{
  gegl_init (NULL, NULL);
  atexit (gegl_exit);
  /* The loaders and savers register their extensions when GEGL first
   * looks an operation up. */
  gegl_has_operation ("gegl:load");
  g_log_set_default_handler (log_message, NULL);
}

/* pthread_once, not g_once: ThreadSanitizer sees the former. */
static void
start_gegl (void)
{
  static pthread_once_t started = PTHREAD_ONCE_INIT;

  pthread_once (&started, init_gegl);
}

/* The operation GEGL has for `path`'s extension, or NULL (said when
 * `say`). */
static const char *
handler (const char *path, int save, int say)
{
  const char *ext = cli_extension (path);
  const char *op;

  start_gegl ();
  op = save ? gegl_operation_handlers_get_saver (ext)
            : gegl_operation_handlers_get_loader (ext);
  if (op && gegl_has_operation (op))
    return op;
  if (say)
    fprintf (cli_err (), "%s: this GEGL has no %s for %s files\n", path,
             save ? "saver" : "loader", ext);
  return NULL;
}

/* The rows' format: `gray` or colour, `alpha`, bytes (U8) or floats, in
 * the file's tone curve and space. */
static const Babl *
rows_format (int gray, int alpha, gh_sample sample, const Babl *space)
{
  char name[32];

  snprintf (name, sizeof name, "%s%s %s", gray ? "Y'" : "R'G'B'",
            alpha ? "A" : "", sample == GH_SAMPLE_U8 ? "u8" : "float");
  return babl_format_with_space (name, space);
}


/* A loader node for `path` in `graph`, or NULL (said when `say`: quiet
 * for a header read ahead of the file's turn). */
static GeglNode *
loader (GeglNode *graph, const char *path, int say)
{
  const char *op;

  if (access (path, R_OK))
    {
      if (say)
        fprintf (cli_err (), "cannot open %s: %s\n", path,
                 strerror (errno));
      return NULL;
    }
  if (!(op = handler (path, 0, say)))
    return NULL;
  return gegl_node_new_child (graph, "operation", op, "path", path, NULL);
}

int
cli_gegl_size (const char *path, size_t *width, size_t *height)
{
  GeglNode *graph, *load;
  GeglRectangle r = { 0, 0, 0, 0 };

  start_gegl ();
  graph = gegl_node_new ();
  if ((load = loader (graph, path, 0)))
    r = gegl_node_get_bounding_box (load);
  g_object_unref (graph);
  *width = (size_t) r.width;
  *height = (size_t) r.height;
  return r.width > 0 && r.height > 0 ? 0 : -1;
}

int
cli_gegl_open (const char *path, cli_image *im)
{
  GeglNode *graph, *load;
  GeglBuffer *buffer = NULL;
  const GeglRectangle *r;
  const Babl *stored, *model;
  cli_gegl_image *g;
  int gray, alpha, warnings = 0;

  start_gegl ();
  graph = gegl_node_new ();
  if ((load = loader (graph, path, 1)))
    {
      GeglNode *sink = gegl_node_new_child (graph, "operation",
                                            "gegl:buffer-sink", "buffer",
                                            &buffer, NULL);
      gegl_node_link (load, sink);
      warnings_seen = &warnings;
      gegl_node_process (sink);
      warnings_seen = NULL;
    }
  g_object_unref (graph);
  if (!load)
    return -1;
  r = buffer ? gegl_buffer_get_extent (buffer) : NULL;
  if (warnings || !r || r->width <= 0 || r->height <= 0 || r->x || r->y)
    {
      fprintf (cli_err (), "cannot read %s: not a valid %s file\n", path,
               cli_extension (path) + 1);
      g_clear_object (&buffer);
      return -1;
    }
  stored = gegl_buffer_get_format (buffer);
  model = babl_format_get_model (stored);
  gray = babl_get_name (model)[0] == 'Y';
  alpha = babl_format_has_alpha (stored);
  g = g_new0 (cli_gegl_image, 1);
  g->buffer = buffer;
  g->stored = stored;
  g->bits = 8 * babl_format_get_bytes_per_pixel (stored)
            / babl_format_get_n_components (stored);
  im->width = (size_t) r->width;
  im->height = (size_t) r->height;
  im->layout = (gh_layout) ((gray ? 1 : 3) + (alpha ? 1 : 0));
  im->sample = g->bits == 8 ? GH_SAMPLE_U8 : GH_SAMPLE_F32;
  im->bins = g->bits == 8 ? 256 : 1024;
  g->rows = rows_format (gray, alpha, im->sample,
                         babl_format_get_space (stored));
  im->row_bytes = im->width * (size_t) babl_format_get_bytes_per_pixel (g->rows);
  im->gegl = g;
  return 0;
}

void
cli_gegl_read_rows (cli_image *im, void *buf, size_t rows)
{
  GeglRectangle r = { 0, (int) im->next_row, (int) im->width, (int) rows };

  gegl_buffer_get (im->gegl->buffer, &r, 1.0, im->gegl->rows, buf,
                   GEGL_AUTO_ROWSTRIDE, GEGL_ABYSS_NONE);
}

void
cli_gegl_close (cli_gegl_image *g)
{
  if (!g)
    return;
  g_clear_object (&g->buffer);
  g_free (g);
}

int
cli_gegl_output_open (cli_output *out, const cli_image *im, int quality)
{
  GeglRectangle r = { 0, 0, (int) im->width, (int) im->height };
  int gray = im->layout == GH_LAYOUT_GRAY || im->layout == GH_LAYOUT_GRAYA;
  int alpha = im->layout == GH_LAYOUT_GRAYA || im->layout == GH_LAYOUT_RGBA;
  const char *saver = handler (out->path, 1, 1);
  cli_gegl_output *o;
  int errsv;

  if (!saver)
    return -1;
  o = g_new0 (cli_gegl_output, 1);
  o->saver = saver;
  o->gray = gray;
  o->quality = quality;
  /* A netpbm input: 8-bit sRGB bytes, stored as read. */
  o->rows = im->gegl ? im->gegl->rows
                     : rows_format (gray, alpha, GH_SAMPLE_U8, NULL);
  o->bits = im->gegl ? im->gegl->bits : 8;
  o->buffer = gegl_buffer_new (&r, im->gegl ? im->gegl->stored : o->rows);
  /* The saver picks nothing by the name, but a hidden temporary that
   * keeps the extension reads as what it is if left behind. */
  if ((errsv = io_whole_temp (out->path, 1, NULL, &o->temp, NULL)))
    {
      fprintf (cli_err (), "cannot write %s: %s\n", out->path,
               strerror (errsv));
      g_object_unref (o->buffer);
      g_free (o);
      return -1;
    }
  out->gegl = o;
  return 0;
}

void
cli_gegl_output_write_rows (cli_output *out, const void *buf, size_t rows)
{
  cli_gegl_output *o = out->gegl;
  const GeglRectangle *e = gegl_buffer_get_extent (o->buffer);
  GeglRectangle r = { 0, (int) out->next_row, e->width, (int) rows };

  gegl_buffer_set (o->buffer, &r, 0, o->rows, buf, GEGL_AUTO_ROWSTRIDE);
}

/* The buffer saved into the temporary: 0, or -1 (said). */
static int
save (cli_output *out)
{
  cli_gegl_output *o = out->gegl;
  GeglNode *graph = gegl_node_new ();
  GeglNode *src = gegl_node_new_child (graph, "operation",
                                       "gegl:buffer-source", "buffer",
                                       o->buffer, NULL);
  GeglNode *sink = gegl_node_new_child (graph, "operation", o->saver, "path",
                                        o->temp, NULL);
  struct stat st;

  /* The input's bit depth (16 for anything above 8 bits where the saver
   * offers only 8 and 16), gray kept gray (JPEG's saver writes colour
   * unless told), and the quality asked for. */
  if (gegl_operation_find_property (o->saver, "bitdepth"))
    gegl_node_set (sink, "bitdepth", o->bits > 8 ? 16 : 8, NULL);
  if (gegl_operation_find_property (o->saver, "grayscale"))
    gegl_node_set (sink, "grayscale", o->gray, NULL);
  /* Baseline JPEG, as libjpeg, ImageMagick and OpenCV write by default:
   * GEGL's default, progressive, takes 4 times as long to encode. */
  if (gegl_operation_find_property (o->saver, "progressive"))
    gegl_node_set (sink, "progressive", FALSE, NULL);
  if (o->quality && gegl_operation_find_property (o->saver, "quality"))
    gegl_node_set (sink, "quality", o->quality, NULL);
  gegl_node_link (src, sink);
  gegl_node_process (sink);
  g_object_unref (graph);
  /* GEGL's savers report a failure only on stderr: an empty file is
   * theirs. */
  if (stat (o->temp, &st) || st.st_size == 0)
    {
      fprintf (cli_err (), "cannot write %s: GEGL's %s failed\n", out->path,
               o->saver);
      return -1;
    }
  return 0;
}

int
cli_gegl_output_close (cli_output *out, int ok)
{
  cli_gegl_output *o = out->gegl;
  int rc = -1;

  if (ok && !save (out) && !cli_output_metadata (out, o->temp))
    {
      int errsv = io_whole_commit (o->temp, out->path);
      if (errsv)
        fprintf (cli_err (), "cannot write %s: %s\n", out->path,
                 strerror (errsv));
      rc = errsv ? -1 : 0;
    }
  else
    unlink (o->temp);
  g_object_unref (o->buffer);
  free (o->temp); /* io_whole_temp's */
  g_free (o);
  out->gegl = NULL;
  return rc;
}

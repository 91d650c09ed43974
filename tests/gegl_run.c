/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gegl_run.c — drives the GEGL module for tests/gegl_module.py (the gegl
 * tool is not in GIMP 3's roots): lists the module's operations, and
 * writes an 8-bit PNG as netpbm for the CLI, before or after one
 * operation.
 *
 *   GEGL_PATH=build/gegl gegl_run list   -- names, menu paths, properties
 *                                        (type, default, range or values,
 *                                        label, blurb, values' labels)
 *   gegl_run load IN.png OUT.pnm [--alpha]
 *   gegl_run apply OPERATION IN.png OUT.pnm [--alpha] [PROP=VALUE...]
 *   gegl_run apply-aux OPERATION IN.png AUX.png OUT.pnm [--alpha]
 *            [PROP=VALUE...]   -- AUX.png (as is) on the aux input
 *   gegl_run zoom OPERATION IN.png [point|centre]  -- a 1/4 blit against the
 *                                       full render (see zoom)
 *   gegl_run live OPERATION IN.png STEP...  -- one node kept while its
 *                                       properties change and its input
 *                                       is painted (see live)
 *   gegl_run batch    -- those commands from stdin, one a line (tabs)
 *
 * The PNG is read as GIMP 3 makes a layer of it (its own format: "Y' u8",
 * "R'G'B' u8", ...); --alpha gives it an alpha channel varying over the
 * image, the same in both commands.  Output keeps the input's layout:
 * P5, P6 or P7.  Exit 1 on any error, 77 when the module is not found. */
#include <gegl.h>
#include <gegl-plugin.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PREFIX "gpu-histogram:"

static int
list (void)
{
  guint   n = 0;
  gchar **ops = gegl_list_operations (&n);
  int     found = 0;

  for (guint k = 0; k < n; k++)
    {
      guint        np = 0;
      GParamSpec **props;

      if (strncmp (ops[k], PREFIX, strlen (PREFIX)))
        continue;
      found++;
      printf ("%s\t%s\n", ops[k],
              gegl_operation_get_key (ops[k], "gimp:menu-path"));
      props = gegl_operation_list_properties (ops[k], &np);
      for (guint p = 0; p < np; p++)
        {
          GValue def = G_VALUE_INIT;
          gchar *text;

          g_value_init (&def, props[p]->value_type);
          g_param_value_set_default (props[p], &def);
          text = G_VALUE_HOLDS_ENUM (&def)
                 ? g_strdup (g_enum_get_value (
                               G_PARAM_SPEC_ENUM (props[p])->enum_class,
                               g_value_get_enum (&def))->value_nick)
                 : g_strdup_value_contents (&def);
          printf ("  %s\t%s\t%s", props[p]->name,
                  g_type_name (props[p]->value_type), text);
          if (G_IS_PARAM_SPEC_INT (props[p]))
            printf ("\t%d..%d", G_PARAM_SPEC_INT (props[p])->minimum,
                    G_PARAM_SPEC_INT (props[p])->maximum);
          else if (G_IS_PARAM_SPEC_DOUBLE (props[p]))
            printf ("\t%g..%g", G_PARAM_SPEC_DOUBLE (props[p])->minimum,
                    G_PARAM_SPEC_DOUBLE (props[p])->maximum);
          else if (G_IS_PARAM_SPEC_ENUM (props[p]))
            {
              GEnumClass *e = G_PARAM_SPEC_ENUM (props[p])->enum_class;

              for (guint v = 0; v < e->n_values; v++)
                printf ("%s%s=%d", v ? "," : "\t", e->values[v].value_nick,
                        e->values[v].value);
            }
          printf ("\t%s\t%s", g_param_spec_get_nick (props[p]),
                  g_param_spec_get_blurb (props[p]));
          if (G_IS_PARAM_SPEC_ENUM (props[p]))
            {
              GEnumClass *e = G_PARAM_SPEC_ENUM (props[p])->enum_class;

              for (guint v = 0; v < e->n_values; v++)
                printf ("%s%s", v ? "," : "\t", e->values[v].value_name);
            }
          printf ("\n");
          g_free (text);
          g_value_unset (&def);
        }
      g_free (props);
    }
  g_free (ops);
  return found ? 0 : 77;
}

/* The PNG as a buffer in its own format, or with a varying alpha. */
static GeglBuffer *
load (const char *path, gboolean alpha)
{
  GeglNode   *graph = gegl_node_new ();
  GeglBuffer *png = NULL, *out;
  GeglNode   *loader = gegl_node_new_child (graph, "operation", "gegl:load",
                                            "path", path, NULL);
  GeglNode   *sink = gegl_node_new_child (graph, "operation",
                                          "gegl:buffer-sink", "buffer", &png,
                                          NULL);
  const Babl *format;
  gboolean    gray;

  gegl_node_link (loader, sink);
  gegl_node_process (sink);
  g_object_unref (graph);
  if (! png)
    return NULL;
  format = gegl_buffer_get_format (png);
  if (! alpha || babl_format_has_alpha (format))
    return png;
  gray = babl_get_name (babl_format_get_model (format))[0] == 'Y';
  format = babl_format (gray ? "Y'A u8" : "R'G'B'A u8");
  out = gegl_buffer_new (gegl_buffer_get_extent (png), format);
  gegl_buffer_copy (png, NULL, GEGL_ABYSS_NONE, out, NULL);
  {
    const GeglRectangle *r = gegl_buffer_get_extent (out);
    gint     n = gray ? 2 : 4;
    guchar  *px = g_malloc ((gsize) r->width * r->height * n);

    gegl_buffer_get (out, r, 1.0, format, px, GEGL_AUTO_ROWSTRIDE,
                     GEGL_ABYSS_NONE);
    /* Alpha from transparent to opaque, in bands: weights on every
     * level, some pixels fully transparent. */
    for (gint y = 0; y < r->height; y++)
      for (gint x = 0; x < r->width; x++)
        px[((gsize) y * r->width + x) * n + n - 1] =
          (guchar) ((x * 7 + y * 3) % 256);
    gegl_buffer_set (out, r, 0, format, px, GEGL_AUTO_ROWSTRIDE);
    g_free (px);
  }
  g_object_unref (png);
  return out;
}

static int
save_pnm (GeglBuffer *buffer, const Babl *like, const char *path)
{
  const GeglRectangle *r = gegl_buffer_get_extent (buffer);
  gboolean    gray = babl_get_name (babl_format_get_model (like))[0] == 'Y';
  gboolean    alpha = babl_format_has_alpha (like);
  gint        n = (gray ? 1 : 3) + (alpha ? 1 : 0);
  const Babl *format = babl_format (gray ? (alpha ? "Y'A u8" : "Y' u8")
                                         : (alpha ? "R'G'B'A u8"
                                                  : "R'G'B' u8"));
  gsize       bytes = (gsize) r->width * r->height * n;
  guchar     *px = g_malloc (bytes);
  FILE       *f = fopen (path, "wb");
  static const char *const types[] = { NULL, "GRAYSCALE", "GRAYSCALE_ALPHA",
                                       "RGB", "RGB_ALPHA" };
  int         ok;

  gegl_buffer_get (buffer, r, 1.0, format, px, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  if (! f)
    {
      g_free (px);
      return 1;
    }
  if (alpha)
    fprintf (f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH %d\nMAXVAL 255\n"
             "TUPLTYPE %s\nENDHDR\n", r->width, r->height, n, types[n]);
  else
    fprintf (f, "P%d\n%d %d\n255\n", gray ? 5 : 6, r->width, r->height);
  ok = fwrite (px, 1, bytes, f) == bytes;
  ok = (fclose (f) == 0) && ok;
  g_free (px);
  return ok ? 0 : 1;
}

/* PROP=VALUE on the node: enums by nick, numbers otherwise. */
static gboolean
set_prop (GeglNode *node, const char *op, const char *arg)
{
  const char *eq = strchr (arg, '=');
  gchar      *name = eq ? g_strndup (arg, eq - arg) : NULL;
  GParamSpec *spec = name ? gegl_operation_find_property (op, name) : NULL;
  GValue      v = G_VALUE_INIT;

  if (! spec)
    {
      fprintf (stderr, "gegl_run: %s: no such property of %s\n", arg, op);
      g_free (name);
      return FALSE;
    }
  g_value_init (&v, spec->value_type);
  if (G_IS_PARAM_SPEC_ENUM (spec))
    {
      GEnumValue *e = g_enum_get_value_by_nick (
                        G_PARAM_SPEC_ENUM (spec)->enum_class, eq + 1);

      if (! e)
        {
          fprintf (stderr, "gegl_run: %s: no such value\n", arg);
          g_free (name);
          return FALSE;
        }
      g_value_set_enum (&v, e->value);
    }
  else if (G_IS_PARAM_SPEC_INT (spec))
    g_value_set_int (&v, atoi (eq + 1));
  else
    g_value_set_double (&v, g_ascii_strtod (eq + 1, NULL));
  gegl_node_set_property (node, name, &v);
  g_value_unset (&v);
  g_free (name);
  return TRUE;
}

/* `aux` may be NULL: nothing on the aux input. */
static int
apply (const char *op, const char *in, const char *aux, const char *out,
       int argc, char **argv)
{
  gboolean    alpha = argc > 0 && ! strcmp (argv[0], "--alpha");
  GeglBuffer *src = load (in, alpha), *result = NULL;
  GeglBuffer *ref = aux ? load (aux, FALSE) : NULL;
  GeglNode   *graph, *source, *node, *sink;
  int         rc;

  if (! src || (aux && ! ref))
    {
      g_clear_object (&src);
      g_clear_object (&ref);
      return 1;
    }
  if (! gegl_has_operation (op))
    return 77;
  graph = gegl_node_new ();
  source = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                "buffer", src, NULL);
  node = gegl_node_new_child (graph, "operation", op, NULL);
  sink = gegl_node_new_child (graph, "operation", "gegl:buffer-sink",
                              "buffer", &result, NULL);
  for (int k = alpha ? 1 : 0; k < argc; k++)
    if (! set_prop (node, op, argv[k]))
      return 1;
  gegl_node_link_many (source, node, sink, NULL);
  /* gegl_node_connect, which replaces connect_to, is not in every GEGL
   * this builds with (0.4.42 has only connect_to). */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  if (ref)
    gegl_node_connect_to (gegl_node_new_child (graph, "operation",
                                               "gegl:buffer-source", "buffer",
                                               ref, NULL),
                          "output", node, "aux");
  G_GNUC_END_IGNORE_DEPRECATIONS
  gegl_node_process (sink);
  rc = result ? save_pnm (result, gegl_buffer_get_format (src), out) : 1;
  g_clear_object (&result);
  g_object_unref (graph);
  g_object_unref (src);
  g_clear_object (&ref);
  return rc;
}

/* An RGBA u8 pixel as one number. */
static guint
pixel_key (const guchar *p)
{
  return (guint) p[0] | (guint) p[1] << 8 | (guint) p[2] << 16
         | (guint) p[3] << 24;
}

/* The operation on the PNG blitted at 1/4 scale with mipmap rendering on,
 * as a zoomed-out canvas asks GEGL for it.  A point operation ("point")
 * maps GEGL's input scaled down with the full size's count: each pixel of
 * the blit is what the full render made of that input pixel, wherever
 * that pixel occurs at full size.  An operation by position ("centre":
 * CLAHE) maps it as the full size maps its centre: where the scaled-down
 * input pixel equals the full-size one at its centre, the blit is the
 * full render there.  Both print the largest sample difference and how
 * many pixels were checked.  Else (match) the blit is the full render
 * scaled down (prints the largest difference). */
static int
zoom (const char *op, const char *in, const char *how)
{
  gboolean      point = how && ! strcmp (how, "point");
  gboolean      centre = how && ! strcmp (how, "centre");
  const Babl   *format = babl_format ("R'G'B'A u8");
  GeglBuffer   *src = load (in, FALSE), *full;
  GeglNode     *graph, *source, *node;
  GeglRectangle whole, quarter;
  guchar       *a, *b, *c = NULL, *d = NULL;
  gsize         n, checked = 0;
  int           worst = 0;

  if (! src)
    return 1;
  g_object_set (gegl_config (), "mipmap-rendering", TRUE, NULL);
  graph = gegl_node_new ();
  source = gegl_node_new_child (graph, "operation", "gegl:buffer-source",
                                "buffer", src, NULL);
  node = gegl_node_new_child (graph, "operation", op, NULL);
  gegl_node_link (source, node);
  whole = gegl_node_get_bounding_box (node);
  quarter = (GeglRectangle) { 0, 0, whole.width / 4, whole.height / 4 };
  n = (gsize) quarter.width * quarter.height;
  a = g_malloc (n * 4);
  b = g_malloc (n * 4);
  full = gegl_buffer_new (&whole, format);
  gegl_node_blit (node, 0.25, &quarter, format, a, GEGL_AUTO_ROWSTRIDE,
                  GEGL_BLIT_DEFAULT);
  gegl_node_blit_buffer (node, full, &whole, 0, GEGL_ABYSS_NONE);
  if (centre)
    {
      gsize all = (gsize) whole.width * whole.height;

      c = g_malloc (all * 4);
      d = g_malloc (all * 4);
      gegl_buffer_get (src, &whole, 1.0, format, c, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      gegl_buffer_get (full, &whole, 1.0, format, d, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      gegl_buffer_get (src, &quarter, 0.25, format, b, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      for (gsize i = 0; i < n; i++)
        {
          gsize x = i % quarter.width * 4 + 2, y = i / quarter.width * 4 + 2;
          gsize at = (y * whole.width + x) * 4;

          if (memcmp (b + i * 4, c + at, 4))
            continue;
          checked++;
          for (int k = 0; k < 4; k++)
            worst = MAX (worst, abs (a[i * 4 + k] - d[at + k]));
        }
      printf ("%d %" G_GSIZE_FORMAT "\n", worst, checked);
    }
  else if (point)
    {
      gsize       all = (gsize) whole.width * whole.height;
      GHashTable *map = g_hash_table_new (NULL, NULL);

      c = g_malloc (all * 4);
      d = g_malloc (all * 4);
      gegl_buffer_get (src, &whole, 1.0, format, c, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      gegl_buffer_get (full, &whole, 1.0, format, d, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      for (gsize i = 0; i < all; i++)
        g_hash_table_insert (map, GUINT_TO_POINTER (pixel_key (c + i * 4)),
                             GUINT_TO_POINTER (pixel_key (d + i * 4)));
      /* GEGL's own scaled-down input, as the operation read it. */
      gegl_buffer_get (src, &quarter, 0.25, format, b, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      for (gsize i = 0; i < n; i++)
        {
          gpointer want;
          guint    w;

          if (! g_hash_table_lookup_extended (
                  map, GUINT_TO_POINTER (pixel_key (b + i * 4)), NULL,
                  &want))
            continue;
          checked++;
          w = GPOINTER_TO_UINT (want);
          for (int k = 0; k < 4; k++)
            worst = MAX (worst,
                         abs (a[i * 4 + k] - (int) ((w >> 8 * k) & 255)));
        }
      g_hash_table_destroy (map);
      printf ("%d %" G_GSIZE_FORMAT "\n", worst, checked);
    }
  else
    {
      gegl_buffer_get (full, &quarter, 0.25, format, b, GEGL_AUTO_ROWSTRIDE,
                       GEGL_ABYSS_NONE);
      for (gsize i = 0; i < n * 4; i++)
        worst = MAX (worst, abs (a[i] - b[i]));
      printf ("%d\n", worst);
    }
  g_free (a);
  g_free (b);
  g_free (c);
  g_free (d);
  g_object_unref (full);
  g_object_unref (graph);
  g_object_unref (src);
  g_object_set (gegl_config (), "mipmap-rendering", FALSE, NULL);
  return 0;
}

/* The module's counts so far (its debug messages). */
static int counts;

static void
count_told (const gchar *domain, GLogLevelFlags level, const gchar *message,
            gpointer data)
{
  (void) domain;
  (void) level;
  (void) data;
  counts += g_str_has_prefix (message, "counted ");
}

/* The node's whole result, rendered as a canvas asks for it: in four
 * chunks at level 0, as RGBA u8. */
static guchar *
render_chunks (GeglNode *node, const GeglRectangle *whole)
{
  const Babl   *format = babl_format ("R'G'B'A u8");
  GeglBuffer   *out = gegl_buffer_new (whole, format);
  gint          w = whole->width / 2, h = whole->height / 2;
  GeglRectangle chunks[4] = {
    { whole->x, whole->y, w, h },
    { whole->x + w, whole->y, whole->width - w, h },
    { whole->x, whole->y + h, w, whole->height - h },
    { whole->x + w, whole->y + h, whole->width - w, whole->height - h } };
  guchar       *px = g_malloc ((gsize) whole->width * whole->height * 4);

  for (int k = 0; k < 4; k++)
    if (chunks[k].width > 0 && chunks[k].height > 0)
      gegl_node_blit_buffer (node, out, &chunks[k], 0, GEGL_ABYSS_NONE);
  gegl_buffer_get (out, whole, 1.0, format, px, GEGL_AUTO_ROWSTRIDE,
                   GEGL_ABYSS_NONE);
  g_object_unref (out);
  return px;
}

/* A live filter: one node kept while its properties change and its input
 * is painted, against a new node for each step.  Steps are properties
 * (PROP=VALUE, several joined by ","), "paint" (a band of the input made
 * white: GEGL invalidates the node) or "zoom" (a 1/4 blit, mipmap
 * rendering on).  Prints per step the counts the kept node made and how
 * many bytes of its result differ from a new node's with the same
 * properties on the same input (zoom: 0). */
static int
live (const char *op, const char *in, int argc, char **argv)
{
  GeglBuffer   *src = load (in, FALSE);
  GeglNode     *graph, *node;
  GeglRectangle whole;
  GPtrArray    *props = g_ptr_array_new_with_free_func (g_free);
  guint         handler;
  int           rc = 0;

  if (! src)
    return 1;
  if (! gegl_has_operation (op))
    return 77;
  handler = g_log_set_handler ("gpu-histogram-gegl", G_LOG_LEVEL_DEBUG,
                               count_told, NULL);
  graph = gegl_node_new ();
  node = gegl_node_new_child (graph, "operation", op, NULL);
  gegl_node_link (gegl_node_new_child (graph, "operation",
                                       "gegl:buffer-source", "buffer", src,
                                       NULL),
                  node);
  whole = *gegl_buffer_get_extent (src);
  for (int k = 0; k < argc && rc == 0; k++)
    {
      int before = counts, made, differ = 0;

      if (! strcmp (argv[k], "paint"))
        {
          const Babl   *white = babl_format ("R'G'B'A u8");
          GeglRectangle band = { whole.x, whole.y + whole.height / 3,
                                 whole.width, whole.height / 5 };
          guchar       *px = g_malloc ((gsize) band.width * band.height * 4);

          memset (px, 255, (gsize) band.width * band.height * 4);
          gegl_buffer_set (src, &band, 0, white, px, GEGL_AUTO_ROWSTRIDE);
          g_free (px);
        }
      else if (! strcmp (argv[k], "zoom"))
        {
          GeglRectangle quarter = { 0, 0, whole.width / 4,
                                    whole.height / 4 };
          guchar *px = g_malloc ((gsize) quarter.width * quarter.height * 4);

          g_object_set (gegl_config (), "mipmap-rendering", TRUE, NULL);
          gegl_node_blit (node, 0.25, &quarter, babl_format ("R'G'B'A u8"),
                          px, GEGL_AUTO_ROWSTRIDE, GEGL_BLIT_DEFAULT);
          g_object_set (gegl_config (), "mipmap-rendering", FALSE, NULL);
          g_free (px);
          printf ("%s %d 0\n", argv[k], counts - before);
          continue;
        }
      else
        {
          gchar **set = g_strsplit (argv[k], ",", -1);

          for (gchar **p = set; *p && rc == 0; p++)
            {
              rc = set_prop (node, op, *p) ? 0 : 1;
              g_ptr_array_add (props, g_strdup (*p));
            }
          g_strfreev (set);
        }
      {
        guchar   *kept = render_chunks (node, &whole), *fresh;
        GeglNode *g2 = gegl_node_new ();
        GeglNode *n2 = gegl_node_new_child (g2, "operation", op, NULL);

        made = counts - before;
        for (guint p = 0; p < props->len && rc == 0; p++)
          rc = set_prop (n2, op, g_ptr_array_index (props, p)) ? 0 : 1;
        gegl_node_link (gegl_node_new_child (g2, "operation",
                                             "gegl:buffer-source", "buffer",
                                             src, NULL),
                        n2);
        fresh = render_chunks (n2, &whole);
        for (gsize i = 0; i < (gsize) whole.width * whole.height * 4; i++)
          differ += kept[i] != fresh[i];
        printf ("%s %d %d\n", argv[k], made, differ);
        g_free (kept);
        g_free (fresh);
        g_object_unref (g2);
      }
    }
  g_log_remove_handler ("gpu-histogram-gegl", handler);
  g_ptr_array_free (props, TRUE);
  g_object_unref (graph);
  g_object_unref (src);
  return rc;
}

/* One command: argv[0] is its name. */
static int
command (int argc, char **argv)
{
  if (argc == 1 && ! strcmp (argv[0], "list"))
    return list ();
  if (argc >= 3 && ! strcmp (argv[0], "load"))
    {
      GeglBuffer *b = load (argv[1], argc > 3 && ! strcmp (argv[3], "--alpha"));
      int         rc = b ? save_pnm (b, gegl_buffer_get_format (b), argv[2])
                         : 1;

      g_clear_object (&b);
      return rc;
    }
  if (argc >= 4 && ! strcmp (argv[0], "apply"))
    return apply (argv[1], argv[2], NULL, argv[3], argc - 4, argv + 4);
  if (argc >= 5 && ! strcmp (argv[0], "apply-aux"))
    return apply (argv[1], argv[2], argv[3], argv[4], argc - 5, argv + 5);
  if (argc >= 3 && ! strcmp (argv[0], "live"))
    return live (argv[1], argv[2], argc - 3, argv + 3);
  if ((argc == 3 || argc == 4) && ! strcmp (argv[0], "zoom"))
    return zoom (argv[1], argv[2], argc == 4 ? argv[3] : NULL);
  fprintf (stderr, "usage: gegl_run list | load IN OUT [--alpha] | "
           "apply OPERATION IN OUT [--alpha] [PROP=VALUE...] | "
           "apply-aux OPERATION IN AUX OUT [--alpha] [PROP=VALUE...] | "
           "zoom OPERATION IN [point|centre] | live OPERATION IN STEP... | batch\n");
  return 2;
}

int
main (int argc, char **argv)
{
  char line[4096];
  int  rc = 0;

  gegl_init (&argc, &argv);
  if (argc != 2 || strcmp (argv[1], "batch"))
    rc = command (argc - 1, argv + 1);
  else
    /* Commands from stdin, one a line, words separated by tabs; each
     * answered by its exit status on stdout: GEGL starts once. */
    while (fgets (line, sizeof line, stdin))
      {
        gchar **words;

        line[strcspn (line, "\n")] = 0;
        words = g_strsplit (line, "\t", -1);
        printf ("%d\n", command (g_strv_length (words), words));
        fflush (stdout);
        g_strfreev (words);
      }
  gegl_exit ();
  return rc;
}

; SPDX-License-Identifier: GPL-3.0-or-later
; Script-Fu, loaded by tests/gegl_filter_api_fu.py through
; plug-in-script-fu-eval: the module's operations made as a script makes
; GIMP's own filters.  PROPS is a flat list of property names and values,
; mode and channel by their values' nicks:
;   (list "clip-limit" 3.5 "tiles-x" 5 "tiles-y" 3 "mode" "each-channel")

; A live filter of OPERATION on DRAWABLE, every property of PROPS set.
(define (gh-filter-append drawable operation props)
  (let ((filter (car (gimp-drawable-filter-new drawable operation operation))))
    (apply gimp-drawable-filter-configure
           (append (list filter LAYER-MODE-REPLACE 1.0) props))
    (gimp-drawable-append-filter drawable filter)))

; OPERATION merged at once, REFERENCE on its aux input (match's reference:
; GIMP keeps no filter with an aux input live).
(define (gh-filter-merge drawable operation props reference)
  (let ((filter (car (gimp-drawable-filter-new drawable operation operation))))
    (apply gimp-drawable-filter-configure
           (append (list filter LAYER-MODE-REPLACE 1.0) props))
    (gimp-drawable-filter-set-aux-input filter "aux" reference)
    (gimp-drawable-merge-filter drawable filter)))

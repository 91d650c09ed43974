; SPDX-License-Identifier: GPL-3.0-or-later
; batch-equalize.scm — equalize every image of a folder with the GPU histogram
; plug-in, in one call (the GPU starts once for the whole folder).
;
; Install: copy this file into the scripts/ folder of your GIMP profile
; (~/.config/GIMP/2.10/scripts/).  Then use Filters > Histogram (GPU) >
; Equalize a Folder, or from a terminal:
;
;   gimp-console-2.10 -i -b '(script-fu-gpu-histogram-batch-equalize
;     "/photos" "*.jpg" 0 "/photos/equalized")' -b '(gimp-quit 0)'
;
; mode 0 equalizes R, G and B independently, 1 only the luminance (the
; colours keep their hue).  Results keep their names and formats; the
; statistics of every file go to statistics.csv in the output folder, and a
; file that cannot be read gets an "error" row there.

(define (script-fu-gpu-histogram-batch-equalize in-dir pattern mode out-dir)
  (let ((files (string-append in-dir DIR-SEPARATOR pattern))
        (csv (string-append out-dir DIR-SEPARATOR "statistics.csv")))
    ; batch operations: 1 equalize each channel, 2 equalize luminance
    (plug-in-gpu-histogram-batch RUN-NONINTERACTIVE files (+ 1 mode) out-dir csv)
    (gimp-message (string-append "Equalized " files " into " out-dir))))

(script-fu-register "script-fu-gpu-histogram-batch-equalize"
  "Equalize a _Folder..."
  "Equalizes every image matching the pattern in a folder and saves the results, with the same names and formats, in another folder, plus statistics.csv."
  "gpu-histogram contributors"
  "GPL-3.0-or-later"
  "2026"
  ""
  SF-DIRNAME "Input folder" ""
  SF-STRING  "File pattern" "*.png"
  SF-OPTION  "Equalize" '("Each channel" "Luminance only")
  SF-DIRNAME "Output folder" "")

(script-fu-menu-register "script-fu-gpu-histogram-batch-equalize"
                         "<Image>/Filters/Histogram (GPU)")

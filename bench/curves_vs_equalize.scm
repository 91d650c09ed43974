; SPDX-License-Identifier: GPL-3.0-or-later
;; curves_vs_equalize.scm — what GIMP 2.10 pays for
;; gimp-drawable-curves-explicit on one and on three channels of a 25.6 MP RGB
;; layer (undo off), beside its own gimp-drawable-equalize and
;; gimp-drawable-histogram, 3 calls each (BENCHMARKS.md, 2026-11-27):
;;   gimp-console-2.10 -i -d -f -b - < bench/curves_vs_equalize.scm
(define (now) (let ((t (gettimeofday))) (+ (* 1000.0 (car t)) (/ (cadr t) 1000.0))))
(define (mk) (let* ((img (car (gimp-image-new 6400 4000 RGB)))
                    (l (car (gimp-layer-new img 6400 4000 RGB-IMAGE "l" 100 NORMAL-MODE))))
   (gimp-image-insert-layer img l 0 0)
   (plug-in-plasma RUN-NONINTERACTIVE img l 7 3.0)
   (gimp-image-undo-disable img)
   (list img l)))
(define il (mk)) (define img (car il)) (define drw (cadr il))
(define curve (let ((v (make-vector 256 0.0))) (let loop ((i 0)) (if (< i 256) (begin (vector-set! v i (/ (- 255 i) 255.0)) (loop (+ i 1))))) v))
(define (timeit name thunk n)
  (let ((t0 (now))) (let loop ((i 0)) (if (< i n) (begin (thunk) (loop (+ i 1)))))
    (gimp-message (string-append name " " (number->string (/ (- (now) t0) n)) " ms"))))
(timeit "equalize" (lambda () (gimp-drawable-equalize drw FALSE)) 3)
(timeit "curves-x3" (lambda () (gimp-drawable-curves-explicit drw HISTOGRAM-RED 256 curve) (gimp-drawable-curves-explicit drw HISTOGRAM-GREEN 256 curve) (gimp-drawable-curves-explicit drw HISTOGRAM-BLUE 256 curve)) 3)
(timeit "curves-x1" (lambda () (gimp-drawable-curves-explicit drw HISTOGRAM-RED 256 curve)) 3)
(timeit "histogram" (lambda () (gimp-drawable-histogram drw HISTOGRAM-VALUE 0.0 1.0)) 3)
(gimp-quit 0)

;;; emacs_test.el --- batch test of editors/emacs/waveasm.el with eglot -*- lexical-binding: t; -*-

;; emacs --batch -Q -l emacs_test.el   (tests/editors/emacs.sh runs it)
;; Environment: WAVEASM_LSP (server), WAVEASM_EXAMPLE (kernel; opened as a
;; copy), WAVEASM_REPO (repository root). Exit 0 when every check passed,
;; 1 on a failure, 77 when eglot cannot be loaded.

(require 'cl-lib)
(require 'package)
;; Debian's elpa-* packages live here; -Q skips the site startup that adds it.
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(unless (require 'eglot nil t)
  (message "emacs_test: SKIP: eglot is not installed (scripts/install-deps.sh installs elpa-eglot)")
  (kill-emacs 77))
(require 'flymake)

(defvar waveasm-test-failures 0)

(defun waveasm-test-check (ok what)
  (if ok
      (message "ok: %s" what)
    (setq waveasm-test-failures (1+ waveasm-test-failures))
    (message "FAIL: %s" what))
  ok)

(defun waveasm-test-wait (pred &optional seconds)
  "Process events until PRED is non-nil or SECONDS (60) pass."
  (let ((deadline (+ (float-time) (or seconds 60)))
        result)
    (while (and (not (setq result (funcall pred)))
                (< (float-time) deadline))
      (accept-process-output nil 0.05))
    result))

(defun waveasm-test-run ()
  (let* ((repo (getenv "WAVEASM_REPO"))
         (server (getenv "WAVEASM_LSP"))
         (example (getenv "WAVEASM_EXAMPLE"))
         (dir (make-temp-file "waveasm-emacs" t))
         (file (expand-file-name (file-name-nondirectory example) dir)))
    (load (expand-file-name "editors/emacs/waveasm.el" repo) nil t)
    (setq waveasm-server-program server
          waveasm-server-settings '(:lints (:waitcnt "warning") :waitcntStallThresholdCycles 16))
    (copy-file example file)
    (find-file file)
    (waveasm-test-check (eq major-mode 'waveasm-mode)
                        "a .mlir file with waveasm.program opens in waveasm-mode")
    ;; Font lock by execution unit.
    (font-lock-ensure)
    (goto-char (point-min))
    (search-forward "waveasm.v_mfma_f32_32x32x8_f16")
    (waveasm-test-check (eq (get-text-property (1- (point)) 'face) 'font-lock-builtin-face)
                        "font lock: MFMA instructions get their face")
    (search-forward "!waveasm.vreg")
    (waveasm-test-check (eq (get-text-property (1- (point)) 'face) 'font-lock-type-face)
                        "font lock: register types")
    (goto-char (point-min))
    (apply #'eglot (eglot--guess-contact))
    (waveasm-test-check (waveasm-test-wait (lambda () (eglot-current-server)))
                        "eglot connects to waveasm-lsp")
    (waveasm-test-check (eglot-managed-p) "the buffer is managed by eglot")
    ;; In batch nothing displays the buffer, so start flymake explicitly;
    ;; eglot hands it the diagnostics the server published.
    (flymake-start)
    (let ((diags (waveasm-test-wait
                  (lambda ()
                    (flymake-start)
                    (let ((ds (flymake-diagnostics)))
                      (and (cl-some (lambda (d) (string-match-p "VGPRs are live" (flymake-diagnostic-text d))) ds)
                           (cl-some (lambda (d) (string-match-p "issue slots in every iteration" (flymake-diagnostic-text d))) ds)
                           ds))))))
      (waveasm-test-check diags "diagnostics arrive in flymake (pressure and waitcnt lints)")
      (waveasm-test-check
       (cl-some (lambda (d) (and (string-match-p "issue slots in every iteration" (flymake-diagnostic-text d))
                                 (memq (flymake-diagnostic-type d) '(eglot-warning :warning))))
                diags)
       "initializationOptions apply: waitcnt lints are warnings")
      ;; What M-x flymake-show-buffer-diagnostics lists.
      (dolist (d (sort (copy-sequence diags)
                       (lambda (a b) (< (flymake-diagnostic-beg a) (flymake-diagnostic-beg b)))))
        (message "  %4d  %-8s %s"
                 (line-number-at-pos (flymake-diagnostic-beg d))
                 (replace-regexp-in-string "^eglot-\\|^:" "" (symbol-name (flymake-diagnostic-type d)))
                 (flymake-diagnostic-text d))))
    ;; A settings change reaches the server as workspace configuration.
    (setq waveasm-server-settings '(:lints (:waitcnt "off") :waitcntStallThresholdCycles 16))
    (eglot-signal-didChangeConfiguration (eglot-current-server))
    (waveasm-test-check
     (waveasm-test-wait
      (lambda ()
        (flymake-start)
        (let ((ds (flymake-diagnostics)))
          (and (cl-some (lambda (d) (string-match-p "VGPRs are live" (flymake-diagnostic-text d))) ds)
               (not (cl-some (lambda (d) (string-match-p "issue slots in every iteration" (flymake-diagnostic-text d))) ds))))))
     "workspace configuration applies: waitcnt lints off")
    ;; Code actions on an op inside the loop (what M-x eglot-code-actions
    ;; lists); required once the server offers them.
    (goto-char (point-min))
    (search-forward "waveasm.v_mfma_f32_32x32x8_f16")
    (if (not (eglot--server-capable :codeActionProvider))
        (message "note: the server does not offer code actions yet")
      (let* ((pos (eglot--pos-to-lsp-position))
             (actions (jsonrpc-request
                       (eglot-current-server) :textDocument/codeAction
                       `(:textDocument ,(eglot--TextDocumentIdentifier)
                         :range (:start ,pos :end ,pos)
                         :context (:diagnostics [])))))
        (waveasm-test-check
         (cl-some (lambda (a) (equal (plist-get a :title) "Schedule this loop (built-in)"))
                  (append actions nil))
         "code actions include \"Schedule this loop (built-in)\"")))
;; Completion: what completion-at-point (eglot's capf) offers while an
    ;; instruction is typed inside the loop, and its signature help.
    (goto-char (point-min))
    (search-forward "waveasm.v_mfma_f32_32x32x8_f16")
    (beginning-of-line)
    (insert "    %sum = waveasm.v_add_u3\n")
    (backward-char 1)
    (let* ((capf (eglot-completion-at-point))
           (cands (and capf (all-completions
                             (buffer-substring-no-properties (nth 0 capf) (nth 1 capf))
                             (nth 2 capf)))))
      (waveasm-test-check (member "waveasm.v_add_u32" cands)
                          (format "completion-at-point offers waveasm.v_add_u32 (%d candidates)"
                                  (length cands))))
    (insert "2 %fa0")
    (let* ((capf (eglot-completion-at-point))
           (cands (and capf (all-completions
                             (buffer-substring-no-properties (nth 0 capf) (nth 1 capf))
                             (nth 2 capf)))))
      (waveasm-test-check (and (member "%fa00" cands) (not (member "%fb0" cands)))
                          (format "completion-at-point offers values in scope: %S" cands)))
    (insert "0, ")
    (let ((help (waveasm--request :textDocument/signatureHelp
                                  `(:textDocument ,(eglot--TextDocumentIdentifier)
                                    :position ,(eglot--pos-to-lsp-position)))))
      (waveasm-test-check (eql (plist-get help :activeParameter) 1)
                          "signature help: the second operand is active"))
    (delete-region (line-beginning-position) (1+ (line-end-position)))
    (let ((metrics (waveasm-metrics)))
      (waveasm-test-check (> (length (plist-get metrics :programs)) 0) "waveasm/metrics round-trips"))
    (let ((asm (waveasm-show-assembly)))
      (waveasm-test-check (with-current-buffer asm
                            (save-excursion (goto-char (point-min)) (search-forward "v_mfma_f32_32x32x8_f16" nil t)))
                          "waveasm/assembly round-trips"))
    (eglot-shutdown (eglot-current-server))
    (set-buffer-modified-p nil)
    (kill-buffer (get-file-buffer file))
    (delete-directory dir t)))

(condition-case err
    (waveasm-test-run)
  (error (setq waveasm-test-failures (1+ waveasm-test-failures))
         (message "FAIL: error: %S" err)))
(kill-emacs (if (zerop waveasm-test-failures) 0 1))
;;; emacs_test.el ends here

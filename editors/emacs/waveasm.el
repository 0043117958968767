;;; waveasm.el --- WaveASM MLIR mode and eglot setup for waveasm-lsp -*- lexical-binding: t; -*-

;; Works with Emacs 28 and Debian's elpa-eglot (1.9), or Emacs 29+'s
;; built-in eglot.
;;
;; (add-to-list 'load-path "/path/to/conductor/editors/emacs")
;; (require 'waveasm)
;; (setq waveasm-server-program "/path/to/build/bin/waveasm-lsp")  ; else PATH
;; (add-hook 'waveasm-mode-hook #'eglot-ensure)
;;
;; `waveasm-server-settings' is the server's JSON (README "waveasm-lsp"),
;; sent as initializationOptions and as the workspace configuration. The LLM
;; API key is never a setting: the server reads the environment variable
;; named by llm.apiKeyEnv (default WAVEASM_LLM_API_KEY) from the process
;; environment Emacs passes on.

;;; Code:

(require 'cl-lib)
(require 'json)

(defgroup waveasm nil
  "WaveASM MLIR and the waveasm-lsp language server."
  :group 'languages)

(defcustom waveasm-server-program "waveasm-lsp"
  "The waveasm-lsp binary (absolute, or a name looked up on PATH)."
  :type 'string)

(defcustom waveasm-server-args nil
  "Extra arguments for the server, e.g. (\"--log=info\")."
  :type '(repeat string))

(defcustom waveasm-server-settings nil
  "Server settings as a plist, e.g. (:target \"gfx950\" :lints (:stall \"warning\"))."
  :type 'plist)

;;;; Major mode

(defconst waveasm--unit-faces
  ;; Instruction families by execution unit (first match wins). `_' is a
  ;; symbol constituent in this syntax table, where \\w would stop at it,
  ;; hence [[:alnum:]_].
  '(("s_\\(?:waitcnt[[:alnum:]_]*\\|barrier\\|nop\\|sleep\\|setprio\\|endpgm\\|branch\\|cbranch_[[:alnum:]_]+\\)" . font-lock-warning-face)
    ("v_\\(?:mfma\\|smfmac\\)[[:alnum:]_]*" . font-lock-builtin-face)
    ("\\(?:buffer\\|global\\|flat\\|scratch\\)_[[:alnum:]_]+" . font-lock-preprocessor-face)
    ("ds_[[:alnum:]_]+" . font-lock-constant-face)
    ("s_\\(?:load\\|buffer_load\\|store\\|dcache\\|memtime\\)[[:alnum:]_]*" . font-lock-preprocessor-face)
    ("s_[[:alnum:]_]+" . font-lock-keyword-face)
    ("v_[[:alnum:]_]+" . font-lock-function-name-face)))

(defconst waveasm-font-lock-keywords
  (append
   '(("\\_<waveasm\\.\\(program\\|loop\\|if\\|condition\\|yield\\)\\_>" 1 font-lock-keyword-face))
   (mapcar (lambda (family)
             `(,(concat "\\_<waveasm\\.\\(" (car family) "\\)\\_>") 1 ,(cdr family)))
           waveasm--unit-faces)
   '(("!waveasm\\.\\(p?[vsa]reg\\|imm\\|scc\\)\\_>" . font-lock-type-face)
     ("![A-Za-z_][A-Za-z0-9_.$]*" . font-lock-type-face)
     ("#[A-Za-z_][A-Za-z0-9_.$]*" . font-lock-constant-face)
     ("%[A-Za-z0-9_$.-]+\\(?:#[0-9]+\\)?\\(?::[0-9]+\\)?" . font-lock-variable-name-face)
     ("@[A-Za-z0-9_$.-]+" . font-lock-function-name-face)))
  "Font lock for `waveasm-mode'.")

(defvar waveasm-mode-syntax-table
  (let ((st (make-syntax-table)))
    (modify-syntax-entry ?/ ". 12" st)
    (modify-syntax-entry ?\n ">" st)
    (modify-syntax-entry ?_ "_" st)
    (modify-syntax-entry ?. "_" st)
    ;; SSA names, types and attributes are symbols with their sigil, so
    ;; completion-at-point replaces `%fa0' or `!waveasm.vr' whole.
    (modify-syntax-entry ?% "_" st)
    (modify-syntax-entry ?! "_" st)
    (modify-syntax-entry ?# "_" st)
    st))

;;;###autoload
(define-derived-mode waveasm-mode prog-mode "WaveASM"
  "Major mode for WaveASM MLIR."
  (setq-local comment-start "// ")
  (setq-local comment-start-skip "//+\\s-*")
  (setq-local font-lock-defaults '(waveasm-font-lock-keywords)))

;;;###autoload
(defun waveasm-buffer-p ()
  "Non-nil for a .mlir buffer whose text has a `waveasm.program' line."
  (and buffer-file-name
       (string-match-p "\\.mlir\\'" buffer-file-name)
       (save-excursion
         (save-restriction
           (widen)
           (goto-char (point-min))
           (re-search-forward "^[ \t]*waveasm\\.program\\_>" (min (point-max) 65536) t)))))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.waveasm\\.mlir\\'" . waveasm-mode))
;;;###autoload
(add-to-list 'magic-mode-alist '(waveasm-buffer-p . waveasm-mode))

;;;; eglot

(defun waveasm--json-settings ()
  "The settings as a JSON-ready plist (an empty object when unset)."
  (or waveasm-server-settings (make-hash-table)))

(defun waveasm--contact (&optional _interactive)
  "The eglot contact: the server command with its initializationOptions."
  (let ((program (executable-find waveasm-server-program)))
    (unless program
      (user-error "waveasm: language server `%s' not found; build it (ninja -C build waveasm-lsp) or set `waveasm-server-program'"
                  waveasm-server-program))
    `(,program ,@waveasm-server-args
               :initializationOptions ,(waveasm--json-settings))))

(defvar eglot-server-programs)
(defvar eglot-workspace-configuration)

(defun waveasm--workspace-configuration (&optional _server)
  "The workspace configuration: {\"waveasm\": settings}, read when sent."
  `((:waveasm . ,(waveasm--json-settings))))

(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs `(waveasm-mode . ,#'waveasm--contact))
  ;; workspace/didChangeConfiguration carries {"waveasm": settings}. A
  ;; function reads `waveasm-server-settings' when eglot sends it; a user
  ;; configuration that is already a list keeps its entries.
  (let ((current (default-value 'eglot-workspace-configuration)))
    (cond ((null current)
           (setq-default eglot-workspace-configuration #'waveasm--workspace-configuration))
          ((listp current)
           (setq-default eglot-workspace-configuration
                         (append (waveasm--workspace-configuration)
                                 (assq-delete-all :waveasm (copy-sequence current))))))))

(declare-function eglot--current-server-or-lose "eglot")
(declare-function eglot--TextDocumentIdentifier "eglot")
(declare-function eglot--pos-to-lsp-position "eglot")
(declare-function jsonrpc-request "jsonrpc")
(declare-function eglot--signal-textDocument/didChange "eglot")

(defun waveasm--request (method params)
  "Send METHOD with PARAMS once the server has the buffer's latest text
(eglot sends edits on an idle timer; a request must not see an older text)."
  (eglot--signal-textDocument/didChange)
  (jsonrpc-request (eglot--current-server-or-lose) method params))

(defun waveasm-show-assembly ()
  "Show the server's assembly of this buffer (request waveasm/assembly)."
  (interactive)
  (let* ((result (waveasm--request :waveasm/assembly
                                   `(:textDocument ,(eglot--TextDocumentIdentifier))))
         (buffer (get-buffer-create (format "*waveasm-asm %s*" (buffer-name)))))
    (with-current-buffer buffer
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert (plist-get result :text))
        (goto-char (point-min))
        (when (fboundp 'asm-mode) (asm-mode))
        (setq buffer-read-only t)))
    (display-buffer buffer)
    buffer))

(defun waveasm-schedule-loop (&optional strategy)
  "Schedule the loop at point (STRATEGY \"builtin\" or \"llm\")."
  (interactive (list (completing-read "Strategy: " '("builtin" "llm") nil t nil nil "builtin")))
  (let ((result (waveasm--request
                 :workspace/executeCommand
                 `(:command "waveasm.scheduleLoop"
                   :arguments [(:uri ,(plist-get (eglot--TextDocumentIdentifier) :uri)
                                :position ,(eglot--pos-to-lsp-position)
                                :strategy ,(or strategy "builtin"))]))))
    (message "waveasm: %s" (or (plist-get result :summary) result))
    result))

(defun waveasm-metrics ()
  "Return and show the metrics of this buffer's programs (waveasm/metrics)."
  (interactive)
  (let ((result (waveasm--request :waveasm/metrics
                                  `(:textDocument ,(eglot--TextDocumentIdentifier)))))
    (cl-loop for p across (plist-get result :programs)
             do (message "@%s: %s cycles, VGPR %s, occupancy %s"
                         (plist-get p :name) (plist-get p :est_cycles)
                         (plist-get p :peak_vgpr) (plist-get p :occupancy)))
    result))

(provide 'waveasm)
;;; waveasm.el ends here

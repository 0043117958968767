" WaveASM MLIR: instructions by execution unit, register types, SSA values,
" attributes and comments (the same classes as the VS Code grammar).
if exists('b:current_syntax')
  finish
endif

syn match waveasmComment "//.*$" contains=@Spell
syn region waveasmString start=/"/ skip=/\\"/ end=/"/
syn match waveasmNumber "\<-\?\(0x\x\+\|\d\+\(\.\d\+\)\?\)\>"
syn match waveasmSSA "%[A-Za-z_$.0-9-]\+\(#\d\+\)\?\(:\d\+\)\?"
syn match waveasmSymbol "@[A-Za-z_$.0-9-]\+"
syn match waveasmAttr "#[A-Za-z_][A-Za-z0-9_.$]*"
syn match waveasmType "![A-Za-z_][A-Za-z0-9_.$]*"
syn match waveasmRegType "!waveasm\.p\?[vsa]reg\>"
syn match waveasmAttrName "\<[A-Za-z_]\w*\ze\s*=[^=]"

syn match waveasmOp "\<waveasm\.[a-z_0-9.]\+"
syn match waveasmValu "\<waveasm\.v_\w\+"
syn match waveasmSalu "\<waveasm\.s_\w\+"
syn match waveasmMfma "\<waveasm\.v_\(mfma\|smfmac\)\w*"
syn match waveasmVmem "\<waveasm\.\(buffer\|global\|flat\|scratch\)_\w\+"
syn match waveasmLds "\<waveasm\.ds_\w\+"
syn match waveasmSmem "\<waveasm\.s_\(load\|buffer_load\|store\|dcache\|memtime\)\w*"
syn match waveasmSync "\<waveasm\.s_\(waitcnt\w*\|barrier\|nop\|sleep\|setprio\|endpgm\|branch\|cbranch_\w\+\)\>"
syn match waveasmControl "\<waveasm\.\(program\|loop\|if\|condition\|yield\)\>"

hi def link waveasmComment Comment
hi def link waveasmString String
hi def link waveasmNumber Number
hi def link waveasmSSA Identifier
hi def link waveasmSymbol Function
hi def link waveasmAttr Constant
hi def link waveasmType Type
hi def link waveasmRegType Type
hi def link waveasmAttrName Label
hi def link waveasmOp Function
hi def link waveasmValu Statement
hi def link waveasmSalu Keyword
hi def link waveasmMfma Special
hi def link waveasmVmem PreProc
hi def link waveasmLds Include
hi def link waveasmSmem Define
hi def link waveasmSync Exception
hi def link waveasmControl Conditional

let b:current_syntax = 'waveasm'

# multi-file: globals across files, per-file locals, section layout
	.text
	.globl	_start, shared
_start:	calls	$0, func
	movl	shared, %r0
	movab	local, %r1
	jbr	func
	jeql	bvar
	halt
local:	.byte	1
	.data
shared:	.long	0x11111111
	.byte	2
	.bss
bvar:	.space	5

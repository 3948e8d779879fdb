# console_echo.s: a guest for the console's host-side tests (tests/cli/
# console_tty.py).  It prints a banner with bit 7 set on every character
# (as 4.3BSD's even parity sets it on some), then echoes what is typed, each
# character again with bit 7 set, polling RXCS/RXDB; a typed '!' halts.
# Kernel mode, memory management off; link it at 0x200.

	RXCS = 0x20			# console receive control/status IPR
	RXDB = 0x21			# console receive data buffer IPR
	TXCS = 0x22			# console transmit control/status IPR
	TXDB = 0x23			# console transmit data buffer IPR

	.text
	.globl	_start
_start:
	movl	$0x8000, %sp		# a stack for jsb
	moval	msg, %r1
1:	movzbl	(%r1)+, %r0
	beql	echo
	bisl2	$0x80, %r0		# the parity bit a terminal must not see
	jsb	putc
	brb	1b
echo:	mfpr	$RXCS, %r2
	bbc	$7, %r2, echo		# wait for RXCS<DONE>
	mfpr	$RXDB, %r0
	bicl2	$~0x7F, %r0
	cmpl	%r0, $0x21		# '!'
	beql	2f
	bisl2	$0x80, %r0
	jsb	putc
	brb	echo
2:	halt

putc:	mfpr	$TXCS, %r2
	bbc	$7, %r2, putc		# wait for TXCS<READY>
	mtpr	%r0, $TXDB
	rsb

msg:	.asciz	"console echo ready\r\n"

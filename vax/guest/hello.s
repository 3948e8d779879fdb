# hello.s: the smallest guest.  It prints one line on the console terminal
# through the TXCS/TXDB processor registers and halts.  It runs in kernel
# mode with memory management off; link it at 0x200 (vasm --base 0x200).
# The bundled time-sharing kernel will live beside it in this folder.

	TXCS = 0x22			# console transmit control/status IPR
	TXDB = 0x23			# console transmit data buffer IPR

	.text
	.globl	_start
_start:
	moval	msg, %r1		# r1 walks the message
1:	movzbl	(%r1)+, %r0		# next character
	beql	3f			# NUL ends the message
2:	mfpr	$TXCS, %r2
	bbc	$7, %r2, 2b		# wait for TXCS<READY>
	mtpr	%r0, $TXDB		# send the character
	brb	1b
3:	halt

msg:	.asciz	"Hello from the emulated VAX 8600.\r\n"

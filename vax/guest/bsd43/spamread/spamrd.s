# spamrd.s: SPAM's READ_BUFFER (FD04) for spamread.c, in 4.3BSD's as.
# as does not know the FD opcodes: they are written as bytes (253 = 0xFD).
# READ_BUFFER leaves the oldest record in R11 (first longword) and R10
# (second), R9 = 0 when it read one, -1 when the buffer was empty.
# Unprivileged: our machine runs FD00-FD05 in any mode unless started
# with --spam-priv kernel (STAT<8> KONLY, microcode/spam.mic SPAM.PRIV).
#
# int spamrd(buf, n) long *buf;  reads up to n records into buf (two
# longwords each, R11 then R10), stops early on an empty buffer; returns
# how many it read.
	.text
	.globl	_spamrd
_spamrd:
	.word	4032			# save r6-r11
	movl	4(ap),r6
	clrl	r7
Lrd1:	cmpl	r7,8(ap)
	bgeq	Lrd2
	.byte	253,4			# READ_BUFFER
	tstl	r9
	bneq	Lrd2
	movl	r11,(r6)+
	movl	r10,(r6)+
	incl	r7
	brb	Lrd1
Lrd2:	movl	r7,r0
	ret

# spamon(): ENABLE (FD02): tracing on (it is) and the marker "tracing
# enabled" (record 0x6001) into the buffer: where spamread starts.
	.globl	_spamon
_spamon:
	.word	0
	.byte	253,2			# ENABLE
	ret

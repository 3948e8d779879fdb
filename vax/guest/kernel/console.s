# console.s: the console terminal (TXCS/TXDB).
#
# Two paths, as in 4.3BSD's cons.c:
#  - kputc/kputs/kputdec/kputhex: polled output for the kernel's own
#    messages (boot, kills, panics, shutdown); they wait for TXCS<READY>.
#  - conswrite: the write system call's path.  Characters go into a ring
#    buffer; the transmit interrupt (IPL 0x14, SCB 0xFC) empties it one
#    character per interrupt.  A writer finding the ring full sleeps on
#    it and is woken when it drains below half.
# Register use: kput* preserve every register except r0; conswrite
# clobbers r0-r5.

	TX_READY = 0x80
	TX_IE	= 0x40
	RINGSZ	= 1024			# power of two

	.text
	.globl	kputc, kputs, kputdec, kputdecw, kputhex, panic
	.globl	conswrite, consdrain, Xconstx, Xconsrx

# kputc: r0 = character
kputc:	pushl	%r1
1:	mfpr	$IPR_TXCS, %r1
	bbc	$7, %r1, 1b		# wait for READY
	mtpr	%r0, $IPR_TXDB
	movl	(%sp)+, %r1
	rsb

# kputs: r0 = address of a NUL-terminated string
kputs:	pushl	%r1
	movl	%r0, %r1
1:	movzbl	(%r1)+, %r0
	beql	2f
	jsb	kputc
	brb	1b
2:	movl	(%sp)+, %r1
	rsb

# kputdec: r0 = unsigned number, printed in decimal
# kputdecw: same, right-aligned in r1 columns
kputdec:
	pushl	%r1
	clrl	%r1
	brb	1f
kputdecw:
	pushl	%r1
1:	pushr	$0x3C			# r2-r5
	movl	%r0, %r2		# r2: value (unsigned)
	moval	decbuf+12, %r3		# digits go backwards from here
	clrb	(%r3)
2:	clrl	%r5			# r4:r5 = value as a quadword
	movl	%r2, %r4
	ediv	$10, %r4, %r2, %r0	# r2 = quotient, r0 = remainder
	addb3	$'0, %r0, -(%r3)
	tstl	%r2
	bneq	2b
	moval	decbuf+12, %r0
	subl2	%r3, %r0		# digits printed
	subl3	%r0, %r1, %r2		# padding needed
	bleq	4f
3:	movl	$32, %r0
	jsb	kputc
	sobgtr	%r2, 3b
4:	movl	%r3, %r0
	jsb	kputs
	popr	$0x3C
	movl	(%sp)+, %r1
	rsb

# kputhex: r0 = number, printed as 8 hex digits
kputhex:
	pushr	$0x06			# r1-r2
	movl	%r0, %r2
	movl	$8, %r1
1:	rotl	$4, %r2, %r2
	bicl3	$0xFFFFFFF0, %r2, %r0
	movzbl	hexdig[%r0], %r0
	jsb	kputc
	sobgtr	%r1, 1b
	popr	$0x06
	rsb

# panic: r0 = message.  Prints it and halts the machine.
panic:	mtpr	$0x1F, $IPR_IPL
	pushl	%r0
	moval	m_panic, %r0
	jsb	kputs
	movl	(%sp)+, %r0
	jsb	kputs
	moval	m_crlf2, %r0
	jsb	kputs
	halt

# conswrite: r1 = address, r2 = length.  Queues the bytes for the
# interrupt-driven writer, sleeping while the ring is full.
conswrite:
	mtpr	$0x14, $IPR_IPL		# block the transmit interrupt
1:	tstl	%r2
	beql	4f
2:	subl3	txtail, txhead, %r3	# characters queued
	cmpl	%r3, $RINGSZ
	blss	3f
	pushr	$0x06			# ring full: sleep on it
	moval	txring, %r0
	clrl	%r1
	jsb	tsleep
	popr	$0x06
	brb	2b
3:	bicl3	$-RINGSZ, txhead, %r3
	movb	(%r1)+, txring[%r3]
	incl	txhead
	decl	%r2
	tstl	txbusy
	bneq	1b
	movl	$1, txbusy		# idle: enabling IE interrupts at once
	mtpr	$TX_IE, $IPR_TXCS	# (READY is set)
	brb	1b
4:	mtpr	$0, $IPR_IPL
	rsb

# consdrain: wait (interrupts enabled below 0x14) until the ring is empty
consdrain:
1:	tstl	txbusy
	bneq	1b
	rsb

# Transmit interrupt: send the next character, or stop when empty.
	.align	2
Xconstx:
	pushr	$0x0F			# r0-r3
	incl	nconsintr
	cmpl	txhead, txtail
	bneq	1f
	mtpr	$0, $IPR_TXCS		# empty: interrupts off
	clrl	txbusy
	brb	2f
1:	bicl3	$-RINGSZ, txtail, %r0
	movzbl	txring[%r0], %r0
	mtpr	%r0, $IPR_TXDB
	incl	txtail
	subl3	txtail, txhead, %r0
	cmpl	%r0, $RINGSZ/2
	bneq	3f			# wake writers once, at half empty
2:	moval	txring, %r0
	jsb	wakeup
3:	popr	$0x0F
	rei

# Receive interrupt: input is not used; read and drop the character.
	.align	2
Xconsrx:
	pushl	%r0
	mfpr	$IPR_RXDB, %r0
	movl	(%sp)+, %r0
	rei

hexdig:	.ascii	"0123456789abcdef"
m_panic: .asciz	"\r\npanic: "
m_crlf2: .asciz	"\r\n"

	.data
	.globl	nconsintr
txhead:	.long	0			# next free slot (free-running)
txtail:	.long	0			# next character to send
txbusy:	.long	0			# transmit interrupts enabled
nconsintr: .long 0
decbuf:	.space	16
	.align	2
txring:	.space	RINGSZ

# libc.s: the user library, one copy in the image, mapped read-only into
# every process at P0 address 0xA000 (ULIBC_VA).  Programs call it with
# CALLS through the fixed vector at its start, e.g.
#	pushl $len; pushab buf; pushl $1; calls $3, *$L_write
# Each vector entry is 8 bytes: the routine's entry mask, then a branch
# to its body.  The stubs are 4.3BSD's: `chmk $n` with AP pointing to the
# caller's arguments; on error (carry set) they return r0 = -1 and
# r1 = errno.  Like all user code it is position independent.
#
# Private data (the process's page at 0x8000): 0x8000 line-buffer count,
# 0x8004-0x80FB the line buffer.  Output is buffered per line so that a
# line is one write and lines of different processes do not mix.

	.globl	libc_text, libc_end
	.globl	L_exit, L_write, L_getpid, L_getuid, L_time, L_sleep
	.globl	L_yield, L_spawn, L_netwait, L_onfault, L_puts, L_putdec
	.globl	L_puthex, L_flush, L_syscall
	L_exit	= 0xA000
	L_write	= 0xA008
	L_getpid = 0xA010
	L_getuid = 0xA018
	L_time	= 0xA020
	L_sleep	= 0xA028
	L_yield	= 0xA030
	L_spawn	= 0xA038
	L_netwait = 0xA040
	L_onfault = 0xA048
	L_puts	= 0xA050
	L_putdec = 0xA058
	L_puthex = 0xA060
	L_flush	= 0xA068
	L_syscall = 0xA070		# syscall(n, ...): any code, for tests

	LBUFN	= 0x8000		# characters in the line buffer
	LBUF	= 0x8004
	LBUFSZ	= 248

	.text
	.align	9
libc_text:
	.word	0;	brw	exit	# 0xA000
	.align	3
	.word	0;	brw	write	# 0xA008
	.align	3
	.word	0;	brw	getpid	# 0xA010
	.align	3
	.word	0;	brw	getuid	# 0xA018
	.align	3
	.word	0;	brw	time	# 0xA020
	.align	3
	.word	0;	brw	sleep	# 0xA028
	.align	3
	.word	0;	brw	yield	# 0xA030
	.align	3
	.word	0;	brw	spawn	# 0xA038
	.align	3
	.word	0;	brw	netwait	# 0xA040
	.align	3
	.word	0;	brw	onfault	# 0xA048
	.align	3
	.word	0x3C;	brw	puts	# 0xA050 (saves r2-r5)
	.align	3
	.word	0x3C;	brw	putdec	# 0xA058
	.align	3
	.word	0x3C;	brw	puthex	# 0xA060
	.align	3
	.word	0x3C;	brw	flush	# 0xA068
	.align	3
	.word	0;	brw	syscall	# 0xA070
	.align	3

exit:	chmk	$1
	halt				# not reached (and privileged anyway)
write:	chmk	$4
	bcs	err
	ret
getpid:	chmk	$20
	bcs	err
	ret
getuid:	chmk	$24
	bcs	err
	ret
time:	chmk	$13
	bcs	err
	ret
sleep:	chmk	$151
	bcs	err
	ret
yield:	chmk	$152
	bcs	err
	ret
spawn:	chmk	$153
	bcs	err
	ret
netwait: chmk	$154
	bcs	err
	ret
onfault: chmk	$155
	bcs	err
	ret
err:	movl	%r0, %r1		# errno
	mnegl	$1, %r0
	ret

# syscall(n, a, b, c): system call n with arguments a, b, c (the CHMK
# code is an operand, so it may come from a register)
syscall:
	movl	4(%ap), %r0
	pushl	16(%ap)			# build (3, a, b, c) for the kernel
	pushl	12(%ap)
	pushl	8(%ap)
	pushl	$3
	movl	%sp, %ap
	chmk	%r0
	bcs	err
	ret

# puts(str): append a NUL-terminated string to the line buffer; a
# newline (or a full buffer) writes the buffer out.
puts:	movl	4(%ap), %r2
1:	movzbl	(%r2)+, %r3
	beql	3f
	movl	*$LBUFN, %r4
	movb	%r3, *$LBUF[%r4]
	incl	*$LBUFN
	cmpl	%r3, $10
	beql	2f
	cmpl	*$LBUFN, $LBUFSZ
	blss	1b
2:	calls	$0, flush1
	brb	1b
3:	ret

# flush(): write out the line buffer
flush:	calls	$0, flush1
	ret
flush1:	.word	0
	tstl	*$LBUFN
	beql	1f
	pushl	*$LBUFN
	pushl	$LBUF
	pushl	$1
	calls	$3, *$L_write
	clrl	*$LBUFN
1:	ret

# putdec(n): n in unsigned decimal
putdec:	movl	4(%ap), %r2
	subl2	$16, %sp
	movab	15(%sp), %r3
	clrb	(%r3)
1:	clrl	%r5
	movl	%r2, %r4
	ediv	$10, %r4, %r2, %r4
	addb3	$48, %r4, -(%r3)
	tstl	%r2
	bneq	1b
	pushl	%r3
	calls	$1, *$L_puts
	ret

# puthex(n): n as 8 hex digits
puthex:	movl	4(%ap), %r2
	subl2	$12, %sp
	movl	%sp, %r3
	movl	$8, %r4
1:	rotl	$4, %r2, %r2
	bicl3	$0xFFFFFFF0, %r2, %r5
	movb	hexd[%r5], (%r3)+
	sobgtr	%r4, 1b
	clrb	(%r3)
	pushl	%sp
	calls	$1, *$L_puts
	ret
hexd:	.ascii	"0123456789abcdef"

	.align	9
libc_end:

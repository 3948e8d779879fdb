# spamread.s: the paper's in-guest trace reader.  Executes READ_BUFFER
# (FD04: R11, R10 = the record, R9 = 0 OK / -1 no data, R8 = tracing
# status) in a loop and builds the histogram of the network software
# interrupt's service time (IPL 12, SCB 0xB0): from its interrupt record
# (identifier 0x10B0) to the REI that ends it, skipping the REIs of
# nested events; the extended record after every LDPCTX is skipped.
# Times are the records' microsecond fields (spam/TRACE-FORMAT.md), mod
# 65536.  Half a second before the system's shutdown it prints the
# histogram (50 us bins, the last one open) and exits.
# On a machine without the SPAM microcode the first READ_BUFFER takes a
# reserved-instruction fault; the onfault handler prints
# "no SPAM microcode" and exits.

	NREC	= 0x8100		# records read
	NSAMP	= 0x8104		# service times measured
	SKIP	= 0x8108		# next record is an extended record
	INB	= 0x810C		# inside an IPL 12 service
	DEPTH	= 0x8110		# nested events inside it
	T0	= 0x8114		# its start (us field)
	SUM	= 0x8118
	MAX	= 0x811C
	MIN	= 0x8120
	END	= 0x8124		# tick to stop at
	HMAX	= 0x8128		# largest bin count
	HIST	= 0x8200		# NBIN+1 counters
	NBIN	= 40
	BINW	= 50

	.text
	.align	9
	.globl	prog_spamread, prog_spamread_end
prog_spamread:
	mnegl	$1, *$MIN
	calls	$0, *$L_time
	subl3	$50, %r1, *$END
	pushab	nospam
	calls	$1, *$L_onfault
	readbuf				# FD04: faults without SPAM microcode
	movq	%r10, %r6		# keep the record (r6 = R10, r7 = R11)
	movl	%r9, %r5
	clrl	-(%sp)			# the opcode exists: no handler now
	calls	$1, *$L_onfault
	pushab	m_start
	calls	$1, *$L_puts
	calls	$0, *$L_flush
	movq	%r6, %r10
	movl	%r5, %r9
	brb	have

loop:	readbuf
have:	tstl	%r9
	bneq	empty
	incl	*$NREC
	jsb	record
	bitl	$0xFF, *$NREC		# every 256 records: time to stop?
	bneq	loop
	calls	$0, *$L_time
	cmpl	%r0, *$END
	blss	loop
	brw	report
empty:	pushl	$1			# nothing to read: wait a tick
	calls	$1, *$L_sleep
	calls	$0, *$L_time
	cmpl	%r0, *$END
	blss	loop
	brw	report

# record: R11, R10 = one record
record:	tstl	*$SKIP
	beql	1f
	clrl	*$SKIP			# the extended record: skip
	rsb
1:	movzwl	%r10, %r2		# r2 = event identifier
	extzv	$12, $4, %r2, %r3	# r3 = class
	cmpl	%r3, $4
	bneq	2f
	movl	$1, *$SKIP		# LDPCTX: an extended record follows
	rsb
2:	extzv	$16, $16, %r11, %r4	# r4 = microseconds <15:0>
	tstl	*$INB
	jeql	6f
	cmpl	%r3, $5
	beql	3f
	cmpl	%r3, $1			# interrupt, exception, CHMx nest
	jlss	9f
	cmpl	%r3, $3
	jgtr	9f
	incl	*$DEPTH
	rsb
3:	tstl	*$DEPTH			# REI: a nested one, or the end
	beql	4f
	decl	*$DEPTH
	rsb
4:	clrl	*$INB
	subl3	*$T0, %r4, %r5
	bicl2	$0xFFFF0000, %r5	# r5 = service time, us
	incl	*$NSAMP
	addl2	%r5, *$SUM
	cmpl	%r5, *$MAX
	blequ	5f
	movl	%r5, *$MAX
5:	cmpl	%r5, *$MIN
	bgequ	51f
	movl	%r5, *$MIN
51:	divl3	$BINW, %r5, %r2
	cmpl	%r2, $NBIN
	blequ	52f
	movl	$NBIN, %r2
52:	incl	*$HIST[%r2]
	rsb
6:	cmpl	%r2, $0x10B0		# interrupt at SCB 0xB0 begins one
	bneq	9f
	movl	$1, *$INB
	clrl	*$DEPTH
	movl	%r4, *$T0
9:	rsb

report:	pushab	m_r1			# "spamread: R records, N samples"
	calls	$1, *$L_puts
	pushl	*$NREC
	calls	$1, *$L_putdec
	pushab	m_r2
	calls	$1, *$L_puts
	pushl	*$NSAMP
	calls	$1, *$L_putdec
	pushab	m_r3
	calls	$1, *$L_puts
	tstl	*$NSAMP
	bneq	1f
	brw	9f
1:	pushab	m_min			# min / mean / max
	calls	$1, *$L_puts
	pushl	*$MIN
	calls	$1, *$L_putdec
	pushab	m_mean
	calls	$1, *$L_puts
	divl3	*$NSAMP, *$SUM, -(%sp)
	calls	$1, *$L_putdec
	pushab	m_max
	calls	$1, *$L_puts
	pushl	*$MAX
	calls	$1, *$L_putdec
	pushab	m_us
	calls	$1, *$L_puts
	clrl	%r6			# largest bin, for the bars
2:	cmpl	*$HIST[%r6], *$HMAX
	blequ	3f
	movl	*$HIST[%r6], *$HMAX
3:	aobleq	$NBIN, %r6, 2b
	clrl	%r6			# one line per non-empty bin
4:	movl	*$HIST[%r6], %r7
	jeql	8f
	mull3	$BINW, %r6, %r8
	pushab	m_sp
	calls	$1, *$L_puts
	pushl	%r8
	calls	$1, *$L_putdec
	cmpl	%r6, $NBIN
	blss	5f
	pushab	m_plus			# the open last bin
	calls	$1, *$L_puts
	brb	6f
5:	pushab	m_dash
	calls	$1, *$L_puts
	addl3	$BINW-1, %r8, -(%sp)
	calls	$1, *$L_putdec
6:	pushab	m_us2
	calls	$1, *$L_puts
	pushl	%r7
	calls	$1, *$L_putdec
	pushab	m_sp
	calls	$1, *$L_puts
	mull3	$40, %r7, %r8		# bar: 40 columns for the largest bin
	divl2	*$HMAX, %r8
	bneq	7f
	movl	$1, %r8
7:	pushab	m_hash
	calls	$1, *$L_puts
	sobgtr	%r8, 7b
	pushab	m_nl
	calls	$1, *$L_puts
8:	jaobleq	$NBIN, %r6, 4b
9:	pushl	$0
	calls	$1, *$L_exit

# reserved-instruction fault on the first READ_BUFFER: no SPAM here
nospam:	pushab	m_nospam
	calls	$1, *$L_puts
	pushl	$1
	calls	$1, *$L_exit

m_start: .asciz	"spamread: reading the SPAM trace buffer\n"
m_nospam: .asciz "spamread: no SPAM microcode\n"
m_r1:	.asciz	"spamread: "
m_r2:	.asciz	" records, "
m_r3:	.asciz	" IPL 12 (SCB 0xB0) service times\n"
m_min:	.asciz	"spamread: min "
m_mean:	.asciz	" us, mean "
m_max:	.asciz	" us, max "
m_us:	.asciz	" us\n"
m_sp:	.asciz	" "
m_dash:	.asciz	"-"
m_plus:	.asciz	"+    "
m_us2:	.asciz	" us  "
m_hash:	.asciz	"#"
m_nl:	.asciz	"\n"

	.align	9
prog_spamread_end:

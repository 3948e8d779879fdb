# routed.s: the network routing daemon.  Sleeps in netwait() until the
# IPL 12 protocol handler has processed packets and wakes it; keeps
# per-route counts and reports every 100 packets.  Without networking
# netwait fails with ENXIO and the daemon exits with status 1.

	NPKT	= 0x8100		# packets seen
	NEXTREP	= 0x8104
	ROUTES	= 0x8110		# 8 per-route counters

	.text
	.align	9
	.globl	prog_routed, prog_routed_end
prog_routed:
	pushab	m_start
	calls	$1, *$L_puts
	movl	$100, *$NEXTREP
1:	calls	$0, *$L_netwait
	tstl	%r0
	blss	9f
	addl2	%r0, *$NPKT
	bicl3	$-8, %r1, %r7		# route of the last packet
	incl	*$ROUTES[%r7]
	cmpl	*$NPKT, *$NEXTREP
	blss	1b
	addl2	$100, *$NEXTREP
	pushab	m_rep			# "routed: N packets, last via route R"
	calls	$1, *$L_puts
	pushl	*$NPKT
	calls	$1, *$L_putdec
	pushab	m_rep2
	calls	$1, *$L_puts
	pushl	%r7
	calls	$1, *$L_putdec
	pushab	m_nl
	calls	$1, *$L_puts
	brb	1b
9:	pushab	m_nonet			# ENXIO: nothing to route
	calls	$1, *$L_puts
	pushl	$1
	calls	$1, *$L_exit

m_start: .asciz	"routed: started\n"
m_rep:	.asciz	"routed: "
m_rep2:	.asciz	" packets, last via route "
m_nl:	.asciz	"\n"
m_nonet: .asciz	"routed: no network interface, exiting\n"

	.align	9
prog_routed_end:

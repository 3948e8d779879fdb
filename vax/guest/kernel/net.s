# net.s: the network interface driver and the IPL 12 protocol handler.
#
# The device (vax/guest/NETDEV.md) is driven through IPRs 0x70-0x74.  At
# boot, netprobe reads NICSR; a machine without the device takes a
# reserved-operand fault, which trap.s turns into a jump to the "absent"
# path (probe_resop).  Then:
#  - Xnetintr (device IPL 0x15, SCB 0x140): copy the received packet out
#    of the device's buffer with MOVC3 into a queue of kernel buffers,
#    acknowledge (DONE), and request the network software interrupt
#    (SIRR 12), as a 4.3BSD driver does with schednetisr.
#  - Xnetisr (IPL 12, SCB 0xB0): protocol work that depends on the
#    packet: verify its checksum (one's-complement sum over every 16-bit
#    word, work proportional to the length), look up the destination in
#    the routing table (longest prefix match), count, and wake the
#    routing daemon (netwait).
# Without the device, cfg_netsim > 0 makes softclock inject a pseudo
# packet every cfg_netsim ticks through the same path (testing aid).
#
# Packet layout (NETDEV.md): +0 destination (longword), +4 source,
# +8 length (word), +10 checksum (word), then payload.

	NQ	= 8			# queue entries (power of two)
	QSZ	= 1536			# bytes per entry (NETBUFSZ)
	NROUTE	= 8

	.text
	.globl	netprobe, Xnetintr, Xnetisr, netsimtick, sys_netwait

netprobe:
	movab	1f, probe_resop		# a reserved operand resumes at 1f
	mfpr	$IPR_NICSR, %r0
	clrl	probe_resop
	movl	$1, netup		# the device is there
	movl	$1, nethw
	moval	rxbuf, %r0
	subl2	$KVA, %r0
	mtpr	%r0, $IPR_NIBA		# receive buffer: physical address
	mtpr	$NETBUFSZ, $IPR_NIBS
	mtpr	$NI_START, $IPR_NICSR
	moval	m_net, %r0
	jsb	kputs
	rsb
1:	moval	m_nonet, %r0
	jsb	kputs
	tstl	cfg_netsim
	beql	2f
	movl	$1, netup		# simulated packets instead
	moval	m_netsim, %r0
	jsb	kputs
	movl	cfg_netsim, %r0
	jsb	kputdec
	moval	m_ticks, %r0
	jsb	kputs
2:	rsb

# Device interrupt.
	.align	2
Xnetintr:
	pushr	$0x3F			# r0-r5
	incl	nnetintr
	mfpr	$IPR_NICSR, %r0
	bbc	$7, %r0, 1f		# DONE?
	mfpr	$IPR_NIRL, %r0		# received length
	jsb	enqueue
	mtpr	$NI_ACK, $IPR_NICSR	# ack: clear DONE
	mtpr	$12, $IPR_SIRR		# protocol work at IPL 12
1:	popr	$0x3F
	rei

# enqueue: r0 = length of the packet in rxbuf.  MOVC3 it into the queue
# (or count a drop if the queue is full).  Clobbers r0-r5.
enqueue:
	cmpl	%r0, $NETBUFSZ
	blequ	1f
	movl	$NETBUFSZ, %r0
1:	subl3	qtail, qhead, %r1
	cmpl	%r1, $NQ
	blss	2f
	incl	nqdrop
	rsb
2:	bicl3	$-NQ, qhead, %r1
	movl	%r0, qlen[%r1]
	mull2	$QSZ, %r1
	movab	qbuf[%r1], %r1
	movc3	%r0, rxbuf, (%r1)
	incl	qhead
	rsb

# Network software interrupt: process every queued packet.
	.align	2
Xnetisr:
	pushr	$0xFFF			# r0-r11
	incl	nnetisr
1:	cmpl	qtail, qhead
	jeql	9f
	bicl3	$-NQ, qtail, %r6
	movl	qlen[%r6], %r7		# r7 = length
	mull3	$QSZ, %r6, %r1
	movab	qbuf[%r1], %r6		# r6 = packet
	# checksum: one's-complement sum of the 16-bit words
	clrl	%r0
	movl	%r6, %r1
	ashl	$-1, %r7, %r2
	beql	3f
2:	movzwl	(%r1)+, %r3
	addl2	%r3, %r0
	sobgtr	%r2, 2b
	blbc	%r7, 3f			# odd length: last byte padded with 0
	movzbl	(%r1), %r3
	addl2	%r3, %r0
3:	extzv	$16, $16, %r0, %r1	# fold the carries
	movzwl	%r0, %r0
	addl2	%r1, %r0
	extzv	$16, $16, %r0, %r1
	movzwl	%r0, %r0
	addl2	%r1, %r0
	cmpl	%r0, $0xFFFF
	beql	4f
	incl	nbadsum			# counted, still routed
4:	# route: longest prefix match of the destination
	movl	(%r6), %r0		# destination
	moval	routes, %r1
	movl	$NROUTE, %r2
	mnegl	$1, %r4			# best route index (none)
	clrl	%r5			# its mask, as a prefix length proxy
	clrl	%r3
5:	bicl3	4(%r1), %r0, %r8	# dst & mask  (bic with ~mask)
	cmpl	%r8, (%r1)
	bneq	6f
	mcoml	4(%r1), %r8		# the mask itself
	cmpl	%r8, %r5
	blssu	6f
	movl	%r8, %r5
	movl	%r3, %r4
6:	addl2	$12, %r1
	incl	%r3
	sobgtr	%r2, 5b
	tstl	%r4
	bgeq	7f
	incl	nnoroute
	brb	8f
7:	mull3	$3, %r4, %r1		# index scales by 4: 12 bytes a route
	incl	routes+8[%r1]		# hits on that route
	movl	%r4, lastroute
8:	incl	npackets
	incl	nwaiting
	incl	qtail
	jbr	1b
9:	moval	nwaiting, %r0		# wake the routing daemon
	jsb	wakeup
	popr	$0xFFF
	rei

# netwait(): sleep until packets were processed; r0 = how many, r1 = the
# route of the last one.  ENXIO without networking.
sys_netwait:
	tstl	netup
	bneq	1f
	movl	$ENXIO, %r2
	rsb
1:	mtpr	$12, $IPR_IPL
2:	movl	nwaiting, %r0
	bneq	3f
	moval	nwaiting, %r0
	clrl	%r1
	jsb	tsleep
	brb	2b
3:	clrl	nwaiting
	movl	lastroute, %r1
	mtpr	$0, $IPR_IPL
	clrl	%r2
	rsb

# netsimtick: called by softclock at IPL 8.  Without the device and with
# cfg_netsim set, build a pseudo packet every cfg_netsim ticks (random
# length and destination from a linear congruential generator, correct
# checksum) and hand it to the same path as the device interrupt.
netsimtick:
	tstl	nethw
	jneq	9f
	tstl	cfg_netsim
	jeql	9f
	jsobgtr	simcount, 9f
	movl	cfg_netsim, simcount
	mtpr	$0x15, $IPR_IPL		# as if at the device's IPL
	jsb	rand
	bicl3	$0xFFFFFC01, %r0, %r7	# even length 64..1086
	addl2	$64, %r7
	jsb	rand
	bicl3	$0x00FFFFFF, %r0, %r1	# destination: one of 256 /8 nets
	rotl	$8, %r1, %r1		#   in the low byte
	bisl3	$0x0A0B0000, %r1, rxbuf	# dst = 0x0A0B00nn
	jsb	rand
	movl	%r0, rxbuf+4		# src
	movw	%r7, rxbuf+8		# length
	clrw	rxbuf+10		# checksum, computed below
	moval	rxbuf+12, %r1		# payload: random words
	subl3	$12, %r7, %r2
	ashl	$-1, %r2, %r2
1:	jsb	rand
	movw	%r0, (%r1)+
	sobgtr	%r2, 1b
	clrl	%r0			# checksum = ~(sum of the words)
	moval	rxbuf, %r1
	ashl	$-1, %r7, %r2
2:	movzwl	(%r1)+, %r3
	addl2	%r3, %r0
	sobgtr	%r2, 2b
	extzv	$16, $16, %r0, %r1
	movzwl	%r0, %r0
	addl2	%r1, %r0
	extzv	$16, $16, %r0, %r1
	addl2	%r1, %r0
	mcomw	%r0, rxbuf+10
	incl	nnetintr
	movl	%r7, %r0
	jsb	enqueue
	mtpr	$12, $IPR_SIRR
	mtpr	$8, $IPR_IPL
9:	rsb

# rand: r0 = next pseudo-random longword (LCG, fixed seed: reproducible)
rand:	mull3	$1103515245, seed, %r0
	addl2	$12345, %r0
	movl	%r0, seed
	rotl	$16, %r0, %r0		# the better-mixed high bits low
	rsb

m_net:	.asciz	"network interface at IPR 0x70, IPL 0x15, vector 0x140\r\n"
m_nonet: .asciz	"no network interface\r\n"
m_netsim: .asciz "network: simulated packets every "
m_ticks: .asciz	" ticks\r\n"

	.data
	.align	2
	.globl	netup, npackets, nnetintr, nnetisr, nbadsum, nqdrop, nnoroute
netup:	.long	0			# networking available (device or sim)
nethw:	.long	0			# the device itself is present
npackets: .long	0			# packets through the protocol handler
nnetintr: .long	0
nnetisr: .long	0
nbadsum: .long	0
nqdrop:	.long	0
nnoroute: .long	0
nwaiting: .long	0			# processed, not yet seen by netwait
lastroute: .long 0
simcount: .long	1
seed:	.long	20240601
qhead:	.long	0
qtail:	.long	0
qlen:	.space	4*NQ
# routing table: network, ~mask (for BIC), hits
	.globl	routes
routes:	.long	0x0A0B0000, 0x0000FFFF, 0	# 10.11/16
	.long	0x0A0B0000, 0x0000003F, 0	# 10.11.0.0/26
	.long	0x0A0B0040, 0x0000003F, 0	# 10.11.0.64/26
	.long	0x0A0B0080, 0x0000007F, 0	# 10.11.0.128/25
	.long	0x0A0B0010, 0x0000000F, 0	# 10.11.0.16/28
	.long	0x0A0B00F0, 0x0000000F, 0	# 10.11.0.240/28
	.long	0x0A000000, 0x00FFFFFF, 0	# 10/8
	.long	0x00000000, 0xFFFFFFFF, 0	# default
	.align	2
rxbuf:	.space	1536			# NETBUFSZ		# the device writes packets here
qbuf:	.space	NQ*QSZ

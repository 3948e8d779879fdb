# deuna_guest.s: a VAX program that runs the DEUNA as 4.3BSD's if_de.c
# does (polling instead of interrupts) and answers ARP requests for
# 192.168.1.2 -- the network test's other end (tests/io/net_pcap.py).
# Kernel mode, mapping off; link it at 0x1000 (vasm --base 0x1000).
#
# UNIBUS pages 0-31 map to physical 0x40000 + 512 n, so UNIBUS address
# ua is physical 0x40000 + ua.  Counts: r8 frames received, r9 ARP
# replies sent, r10 other frames.

	MAP = 0x20006800		# UBA 0 (TR 3): map register 0
	PCSR0 = 0x2013f948		# 0774510 in UNIBUS space
	MEM = 0x40000			# UNIBUS address 0
	PCB = MEM + 0x000
	UDB = MEM + 0x010
	TXR = MEM + 0x040		# 2 transmit entries of 5 words
	RXR = MEM + 0x080		# 4 receive entries of 5 words
	TXB = MEM + 0x400		# transmit buffers 0x400, 0xc00
	RXB = MEM + 0x1000		# receive buffers 0x1000 + 0x800 n

	.text
	.globl	_start
_start:
	movl	$0xf000, %sp
	movl	$MAP, %r0		# the map: 32 pages from physical 0x40000
	movl	$0x80000200, %r1
	movl	$32, %r2
1:	movl	%r1, (%r0)+
	incl	%r1
	sobgtr	%r2, 1b
	movl	$PCSR0, %r11
	bsbw	wait			# the power-up self test
	clrw	4(%r11)			# PCSR2/3: the PCB at UNIBUS 0
	clrw	6(%r11)
	movb	$1, (%r11)		# GET PCBB
	bsbw	wait
	movl	$UDB, %r0		# ring format: 2 + 4 entries of 5 words
	movw	$0x040, (%r0)+
	movw	$0x500, (%r0)+
	movw	$2, (%r0)+
	movw	$0x080, (%r0)+
	movw	$0x500, (%r0)+
	movw	$4, (%r0)+
	movl	$PCB, %r0
	movw	$9, (%r0)		# WTRING, the UDB at 0x010
	movw	$0x010, 2(%r0)
	clrl	4(%r0)
	movb	$2, (%r11)		# GET CMD
	bsbw	wait
	movw	$0xd, (%r0)		# WTMODE: TPAD, HDX
	movw	$0x1001, 2(%r0)
	movb	$2, (%r11)
	bsbw	wait
	clrl	%r6			# the receive entries: 1518 bytes each
	movl	$RXR, %r1
2:	movw	$1518, (%r1)
	ashl	$11, %r6, %r2
	addw3	$0x1000, %r2, 2(%r1)
	movw	$0x8000, 4(%r1)		# OWN
	clrw	6(%r1)
	addl2	$10, %r1
	aoblss	$4, %r6, 2b
	clrw	TXR + 4			# the transmit entries: the host's
	clrw	TXR + 14
	movb	$4, (%r11)		# START
	bsbw	wait
	clrl	%r6			# the next receive entry
	clrl	%r7			# the next transmit entry
	clrl	%r8
	clrl	%r9
	clrl	%r10

loop:	bitw	$0x400, (%r11)		# RCBI: the ring was full; reception
	beql	4f			# resumes with a polling demand
	movb	$4, 1(%r11)
	movb	$8, (%r11)
4:	mull3	$10, %r6, %r1
	addl2	$RXR, %r1		# r1: the entry
	bitw	$0x8000, 4(%r1)
	bneq	loop			# still the port's: nothing yet
	incl	%r8
	ashl	$11, %r6, %r2
	addl2	$RXB, %r2		# r2: the frame
	bsbw	answer			# an ARP request for us? answered
	blbs	%r0, hang
	incl	%r10			# something else
hang:	clrw	6(%r1)			# give the buffer back
	movw	$0x8000, 4(%r1)
	incl	%r6
	bicl2	$4, %r6
	brw	loop

# r2: a received frame.  An ARP request for 192.168.1.2 gets its reply
# (r0 = 1); anything else r0 = 0.
answer:	clrl	%r0
	cmpw	12(%r2), $0x0608	# ARP
	bneq	8f
	cmpw	20(%r2), $0x0100	# a request
	bneq	8f
	cmpl	38(%r2), $0x0201a8c0	# for 192.168.1.2
	beql	7f
8:	rsb
7:	mull3	$10, %r7, %r3
	addl2	$TXR, %r3		# r3: the transmit entry
3:	bitw	$0x8000, 4(%r3)		# wait until the port has sent its last frame
	bneq	3b
	ashl	$11, %r7, %r4
	addl2	$TXB, %r4		# r4: its buffer
	movw	12(%r2), 12(%r4)	# the request, turned into the reply:
	movl	14(%r2), 14(%r4)	# type, hardware, protocol, lengths
	movw	18(%r2), 18(%r4)
	movl	22(%r2), (%r4)		# to the asker
	movw	26(%r2), 4(%r4)
	movw	$0x0200, 20(%r4)	# ARP reply
	movl	$0x472b0008, 22(%r4)	# 08:00:2b:47:54:49 is 192.168.1.2
	movw	$0x4954, 26(%r4)
	movl	$0x0201a8c0, 28(%r4)
	movl	22(%r2), 32(%r4)	# the asker's addresses
	movw	26(%r2), 36(%r4)
	movl	28(%r2), 38(%r4)
	movw	$42, (%r3)		# the entry: 42 bytes (the port pads them)
	ashl	$11, %r7, %r5
	addw3	$0x400, %r5, 2(%r3)
	clrw	6(%r3)
	movw	$0x8300, 4(%r3)		# OWN, STP, ENP
	movb	$8, (%r11)		# POLLING DEMAND
	incl	%r9
	xorl2	$1, %r7
	movl	$1, %r0
	rsb

# Waits for INTR and clears the interrupt bits, as dewait() does.
wait:	bitw	$0x80, (%r11)
	beql	wait
	movb	1(%r11), %r5
	movb	%r5, 1(%r11)
	rsb

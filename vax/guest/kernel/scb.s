# scb.s: the System Control Block, one page-aligned page of the image.
# Each longword is the S0 address of a handler, +1 for the interrupt
# stack (vax-facts §4.2).  As in 4.3BSD: machine check, KSNV and every
# interrupt except the AST run on the interrupt stack; exceptions,
# CHMx and the AST (IPL 2) on the kernel stack.  Unused vectors go to
# Xstray.  Written by a one-off script; edit by hand.

	.text
	.align	9
	.globl	scb
scb:
	.long	Xstray+KVA+1		# 0x000
	.long	mchk_s0+KVA+1		# 0x004 machine check (replaced at boot while probing)
	.long	Xksnv+KVA+1		# 0x008 kernel stack not valid
	.long	Xpowerfail+KVA+1		# 0x00C power fail
	.long	Xresinst+KVA+0		# 0x010 reserved/privileged instruction
	.long	Xxfc+KVA+0		# 0x014 XFC
	.long	Xresop+KVA+0		# 0x018 reserved operand
	.long	Xresadr+KVA+0		# 0x01C reserved addressing mode
	.long	Xacv+KVA+0		# 0x020 access control violation
	.long	Xtnv+KVA+0		# 0x024 translation not valid
	.long	Xtrace+KVA+0		# 0x028 trace pending
	.long	Xbpt+KVA+0		# 0x02C breakpoint
	.long	Xcompat+KVA+0		# 0x030 compatibility mode
	.long	Xarith+KVA+0		# 0x034 arithmetic trap
	.long	Xstray+KVA+1		# 0x038
	.long	Xstray+KVA+1		# 0x03C
	.long	Xsyscall+KVA+0		# 0x040 CHMK: system call
	.long	Xchme+KVA+0		# 0x044 CHME
	.long	Xchms+KVA+0		# 0x048 CHMS
	.long	Xchmu+KVA+0		# 0x04C CHMU
	.long	Xstray+KVA+1		# 0x050
	.long	Xstray+KVA+1		# 0x054
	.long	Xstray+KVA+1		# 0x058
	.long	Xstray+KVA+1		# 0x05C
	.long	Xstray+KVA+1		# 0x060
	.long	Xstray+KVA+1		# 0x064
	.long	Xstray+KVA+1		# 0x068
	.long	Xstray+KVA+1		# 0x06C
	.long	Xstray+KVA+1		# 0x070
	.long	Xstray+KVA+1		# 0x074
	.long	Xstray+KVA+1		# 0x078
	.long	Xstray+KVA+1		# 0x07C
	.long	Xstray+KVA+1		# 0x080
	.long	Xstray+KVA+1		# 0x084
	.long	Xast+KVA+0		# 0x088 software level 2: AST (reschedule)
	.long	Xstray+KVA+1		# 0x08C
	.long	Xstray+KVA+1		# 0x090
	.long	Xstray+KVA+1		# 0x094
	.long	Xstray+KVA+1		# 0x098
	.long	Xstray+KVA+1		# 0x09C
	.long	Xsoftclock+KVA+1		# 0x0A0 software level 8: softclock
	.long	Xstray+KVA+1		# 0x0A4
	.long	Xstray+KVA+1		# 0x0A8
	.long	Xstray+KVA+1		# 0x0AC
	.long	Xnetisr+KVA+1		# 0x0B0 software level 12: network protocol
	.long	Xstray+KVA+1		# 0x0B4
	.long	Xstray+KVA+1		# 0x0B8
	.long	Xstray+KVA+1		# 0x0BC
	.long	Xhardclock+KVA+1		# 0x0C0 interval clock, IPL 0x18
	.long	Xstray+KVA+1		# 0x0C4
	.long	Xstray+KVA+1		# 0x0C8
	.long	Xstray+KVA+1		# 0x0CC
	.long	Xstray+KVA+1		# 0x0D0
	.long	Xstray+KVA+1		# 0x0D4
	.long	Xstray+KVA+1		# 0x0D8
	.long	Xstray+KVA+1		# 0x0DC
	.long	Xstray+KVA+1		# 0x0E0
	.long	Xstray+KVA+1		# 0x0E4
	.long	Xstray+KVA+1		# 0x0E8
	.long	Xstray+KVA+1		# 0x0EC
	.long	Xstray+KVA+1		# 0x0F0
	.long	Xstray+KVA+1		# 0x0F4
	.long	Xconsrx+KVA+1		# 0x0F8 console receive
	.long	Xconstx+KVA+1		# 0x0FC console transmit, IPL 0x14
	.long	Xstray+KVA+1		# 0x100
	.long	Xstray+KVA+1		# 0x104
	.long	Xstray+KVA+1		# 0x108
	.long	Xstray+KVA+1		# 0x10C
	.long	Xstray+KVA+1		# 0x110
	.long	Xstray+KVA+1		# 0x114
	.long	Xstray+KVA+1		# 0x118
	.long	Xstray+KVA+1		# 0x11C
	.long	Xstray+KVA+1		# 0x120
	.long	Xstray+KVA+1		# 0x124
	.long	Xstray+KVA+1		# 0x128
	.long	Xstray+KVA+1		# 0x12C
	.long	Xstray+KVA+1		# 0x130
	.long	Xstray+KVA+1		# 0x134
	.long	Xstray+KVA+1		# 0x138
	.long	Xstray+KVA+1		# 0x13C
	.long	Xnetintr+KVA+1		# 0x140 network interface, IPL 0x15 (NETDEV.md)
	.long	Xstray+KVA+1		# 0x144
	.long	Xstray+KVA+1		# 0x148
	.long	Xstray+KVA+1		# 0x14C
	.long	Xstray+KVA+1		# 0x150
	.long	Xstray+KVA+1		# 0x154
	.long	Xstray+KVA+1		# 0x158
	.long	Xstray+KVA+1		# 0x15C
	.long	Xstray+KVA+1		# 0x160
	.long	Xstray+KVA+1		# 0x164
	.long	Xstray+KVA+1		# 0x168
	.long	Xstray+KVA+1		# 0x16C
	.long	Xstray+KVA+1		# 0x170
	.long	Xstray+KVA+1		# 0x174
	.long	Xstray+KVA+1		# 0x178
	.long	Xstray+KVA+1		# 0x17C
	.long	Xstray+KVA+1		# 0x180
	.long	Xstray+KVA+1		# 0x184
	.long	Xstray+KVA+1		# 0x188
	.long	Xstray+KVA+1		# 0x18C
	.long	Xstray+KVA+1		# 0x190
	.long	Xstray+KVA+1		# 0x194
	.long	Xstray+KVA+1		# 0x198
	.long	Xstray+KVA+1		# 0x19C
	.long	Xstray+KVA+1		# 0x1A0
	.long	Xstray+KVA+1		# 0x1A4
	.long	Xstray+KVA+1		# 0x1A8
	.long	Xstray+KVA+1		# 0x1AC
	.long	Xstray+KVA+1		# 0x1B0
	.long	Xstray+KVA+1		# 0x1B4
	.long	Xstray+KVA+1		# 0x1B8
	.long	Xstray+KVA+1		# 0x1BC
	.long	Xstray+KVA+1		# 0x1C0
	.long	Xstray+KVA+1		# 0x1C4
	.long	Xstray+KVA+1		# 0x1C8
	.long	Xstray+KVA+1		# 0x1CC
	.long	Xstray+KVA+1		# 0x1D0
	.long	Xstray+KVA+1		# 0x1D4
	.long	Xstray+KVA+1		# 0x1D8
	.long	Xstray+KVA+1		# 0x1DC
	.long	Xstray+KVA+1		# 0x1E0
	.long	Xstray+KVA+1		# 0x1E4
	.long	Xstray+KVA+1		# 0x1E8
	.long	Xstray+KVA+1		# 0x1EC
	.long	Xstray+KVA+1		# 0x1F0
	.long	Xstray+KVA+1		# 0x1F4
	.long	Xstray+KVA+1		# 0x1F8
	.long	Xstray+KVA+1		# 0x1FC
